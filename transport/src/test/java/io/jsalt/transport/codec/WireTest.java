package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireTest {

    /** A decoded message, as SaltPack.unpack hands it over. */
    private static Map<String, Object> message() {
        Map<Object, Object> load = new LinkedHashMap<>();
        load.put("enc", "aes");
        load.put("version", 2L);
        load.put("load", new byte[] {(byte) 0xff, 0x00});
        load.put("pub", "-----BEGIN PUBLIC KEY-----");
        load.put("nested", Map.of("id", "vector-minion"));
        load.put("arg", List.of("hello"));
        load.put("success", true);
        load.put("legacy_flag", 1L);
        load.put("nothing", null);
        load.put("huge", new BigInteger("18446744073709551615"));
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }

    @Test
    void readsEachFieldWithItsType() {
        Map<String, Object> m = message();

        assertThat(Wire.string(m, "enc")).isEqualTo("aes");
        assertThat(Wire.longValue(m, "version")).isEqualTo(2L);
        assertThat(Wire.bytes(m, "load")).containsExactly(0xff, 0x00);
        assertThat(Wire.map(m, "nested")).containsEntry("id", "vector-minion");
        assertThat(Wire.list(m, "arg")).containsExactly("hello");
        assertThat(Wire.bool(m, "success", false)).isTrue();
        assertThat(Wire.bool(m, "legacy_flag", false)).isTrue();
    }

    @Test
    void namesTheMissingField() {
        Map<String, Object> m = message();

        assertThatThrownBy(() -> Wire.string(m, "cmd")).isInstanceOf(WireException.class)
                .hasMessageContaining("'cmd'").hasMessageContaining("missing");
        assertThatThrownBy(() -> Wire.bytes(m, "nothing")).isInstanceOf(WireException.class)
                .hasMessageContaining("'nothing'").hasMessageContaining("null");
        assertThatThrownBy(() -> Wire.map(m, "absent")).isInstanceOf(WireException.class).hasMessageContaining("'absent'");
        assertThatThrownBy(() -> Wire.list(m, "absent")).isInstanceOf(WireException.class).hasMessageContaining("'absent'");
        assertThatThrownBy(() -> Wire.longValue(m, "absent")).isInstanceOf(WireException.class).hasMessageContaining("'absent'");
    }

    @Test
    void namesTheFieldOfTheWrongType() {
        Map<String, Object> m = message();

        assertThatThrownBy(() -> Wire.string(m, "version")).isInstanceOf(WireException.class)
                .hasMessageContaining("'version'").hasMessageContaining("Long");
        assertThatThrownBy(() -> Wire.string(m, "load")).isInstanceOf(WireException.class).hasMessageContaining("'load'");
        assertThatThrownBy(() -> Wire.longValue(m, "enc")).isInstanceOf(WireException.class).hasMessageContaining("'enc'");
        assertThatThrownBy(() -> Wire.longValue(m, "huge")).isInstanceOf(WireException.class).hasMessageContaining("'huge'");
        assertThatThrownBy(() -> Wire.bytes(m, "version")).isInstanceOf(WireException.class).hasMessageContaining("'version'");
        assertThatThrownBy(() -> Wire.map(m, "arg")).isInstanceOf(WireException.class).hasMessageContaining("'arg'");
        assertThatThrownBy(() -> Wire.list(m, "nested")).isInstanceOf(WireException.class).hasMessageContaining("'nested'");
        assertThatThrownBy(() -> Wire.bool(m, "enc", true)).isInstanceOf(WireException.class).hasMessageContaining("'enc'");
        assertThatThrownBy(() -> Wire.bool(m, "version", true)).as("2 is not a flag")
                .isInstanceOf(WireException.class).hasMessageContaining("'version'");
        assertThatThrownBy(() -> Wire.optString(m, "version", "x")).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> Wire.optList(m, "enc")).isInstanceOf(WireException.class);
    }

    @Test
    void givesTheDefaultForAMissingOrNullOptionalField() {
        Map<String, Object> m = message();

        assertThat(Wire.optString(m, "absent", "base")).isEqualTo("base");
        assertThat(Wire.optString(m, "nothing", "base")).isEqualTo("base");
        assertThat(Wire.optString(m, "enc", "base")).isEqualTo("aes");
        assertThat(Wire.optList(m, "absent")).isEmpty();
        assertThat(Wire.optList(m, "nothing")).isEmpty();
        assertThat(Wire.optList(m, "arg")).containsExactly("hello");
        assertThat(Wire.bool(m, "absent", true)).isTrue();
        assertThat(Wire.bool(m, "nothing", false)).isFalse();
        assertThat(Wire.optBytes(m, "absent")).isNull();
        assertThat(Wire.optBytes(m, "pub")).isEqualTo("-----BEGIN PUBLIC KEY-----".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsAByteStringTheSameWhetherItArrivedAsTextOrAsBytes() {
        byte[] pem = "-----BEGIN PUBLIC KEY-----\nMIIB\u00e9".getBytes(StandardCharsets.UTF_8);
        Map<String, Object> asRaw = Wire.asMap(SaltPack.unpack(SaltPack.pack(Map.of("pub", pem))));
        Map<String, Object> asBin = Wire.asMap(SaltPack.unpack(SaltPack.packBinType(Map.of("pub", pem))));

        assertThat(asRaw.get("pub")).as("valid UTF-8 in the raw family becomes text").isInstanceOf(String.class);
        assertThat(asBin.get("pub")).as("bin stays bytes").isInstanceOf(byte[].class);
        assertThat(Wire.bytes(asRaw, "pub")).isEqualTo(pem).isEqualTo(Wire.bytes(asBin, "pub"));
        assertThat(Wire.asBytes(asRaw.get("pub"))).isEqualTo(Wire.asBytes(asBin.get("pub")));
        assertThatThrownBy(() -> Wire.asBytes(5L)).isInstanceOf(WireException.class);
    }

    @Test
    void acceptsOnlyMapsWithStringKeys() {
        Map<Object, Object> numericKeys = new HashMap<>();
        numericKeys.put(1L, "one");
        Map<String, Object> holder = new HashMap<>();
        holder.put("inner", numericKeys);

        assertThatThrownBy(() -> Wire.asMap(numericKeys)).isInstanceOf(WireException.class).hasMessageContaining("Long");
        assertThatThrownBy(() -> Wire.asMap("text")).isInstanceOf(WireException.class).hasMessageContaining("String");
        assertThatThrownBy(() -> Wire.asMap(null)).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> Wire.map(holder, "inner")).isInstanceOf(WireException.class).hasMessageContaining("'inner'");
    }
}
