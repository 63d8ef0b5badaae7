package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.api.ApiException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {
    @Test
    void aFormIsOneChunkWhoseRepeatedKeysBecomeLists() {
        Object parsed = JsonBodies.parse("application/x-www-form-urlencoded",
                "client=local&tgt=web%2A&fun=cmd.run&arg=ls&arg=-l%20%2Ftmp");
        assertThat(parsed).isEqualTo(List.of(Map.of("client", "local", "tgt", "web*", "fun", "cmd.run", "arg", List.of("ls", "-l /tmp"))));
    }

    @Test
    void jsonArraysBecomeListsAllTheWayDown() {
        Object parsed = JsonBodies.parse("application/json; charset=utf-8", "[{\"arg\":[1,[\"a\"]],\"kwarg\":{\"x\":true}}]");
        assertThat(parsed).isEqualTo(List.of(Map.of("arg", List.of(1L, List.of("a")), "kwarg", Map.of("x", true))));
    }

    @Test
    void badJsonAndUnknownTypesAreRefusedWithSaltApisStatus() {
        assertThatThrownBy(() -> JsonBodies.parse("application/json", "[{"))
                .isInstanceOf(ApiException.class).hasMessage("Invalid JSON document")
                .extracting(e -> ((ApiException) e).status()).isEqualTo(400);
        assertThatThrownBy(() -> JsonBodies.parse("text/csv", "a,b"))
                .extracting(e -> ((ApiException) e).status()).isEqualTo(415);
        assertThatThrownBy(() -> JsonBodies.parse("application/x-www-form-urlencoded", "a=%zz"))
                .extracting(e -> ((ApiException) e).status()).isEqualTo(400);
    }

    @Test
    void doublesAreWrittenAsPlainDecimals() {
        assertThat(JsonBodies.write(Map.of("expire", 1795573062.079))).isEqualTo("{\"expire\":1795573062.079}");
        assertThat(JsonBodies.write(List.of(1L, "x", true))).isEqualTo("[1,\"x\",true]");
    }

    @Test
    void errorPagesEscapeWhatTheRequestCarried() {
        assertThat(ErrorPage.html(400, "invalid target: <script>x</script>")).contains("&lt;script&gt;").doesNotContain("<script>");
    }
}
