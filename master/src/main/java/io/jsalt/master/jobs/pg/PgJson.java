package io.jsalt.master.jobs.pg;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Values as the JSON that {@code jsonb} columns hold, and back. Bytes that are UTF-8 become text, as Salt's
 * {@code salt.utils.data.decode} makes them before its pgjsonb returner writes; other bytes, and text with a
 * NUL (which {@code jsonb} refuses), become {@code {"$binary": base64}} and come back as bytes. Integers
 * come back as Long, as msgpack gives them. JSON is read with the YAML 1.2 loader the config already uses
 * (JSON is YAML 1.2), so no second parser is needed.
 */
public final class PgJson {
    static final String BINARY = "$binary";
    private static final LoadSettings SETTINGS = LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE)
            .setAllowDuplicateKeys(true).build();

    private PgJson() {
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    public static Object read(String json) {
        return json == null ? null : normalise(new Load(SETTINGS).loadFromString(json));
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Double d && (d.isNaN() || d.isInfinite())
                || value instanceof Float f && (f.isNaN() || f.isInfinite())) {
            string(value.toString(), out); // JSON has no NaN; Python's json.dumps writes one jsonb would refuse
        } else if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
            out.append(plainFraction((Number) value));
        } else if (value instanceof Number) {
            out.append(value);
        } else if (value instanceof byte[] bytes) {
            String text = utf8(bytes);
            if (text == null || text.indexOf('\0') >= 0) {
                binary(bytes, out);
            } else {
                string(text, out);
            }
        } else if (value instanceof String s && s.indexOf('\0') >= 0) {
            binary(s.getBytes(StandardCharsets.UTF_8), out);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                string(String.valueOf(e.getKey()).replace("\0", ""), out);
                out.append(':');
                write(e.getValue(), out);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            Iterator<?> it = items.iterator();
            while (it.hasNext()) {
                write(it.next(), out);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append(']');
        } else if (value instanceof Object[] items) {
            write(List.of(items), out);
        } else {
            string(value.toString(), out);
        }
    }

    /**
     * A fraction in plain notation with a decimal point ({@code 1.0E10} as {@code 10000000000.0}): {@code jsonb}
     * keeps that text as it is, where it would print {@code 1.0E10} as the integer {@code 10000000000}, so the
     * number is read back as the kind it was written (the cluster seal tells {@code 8} from {@code 8.0}).
     */
    static String plainFraction(Number n) {
        String plain = new BigDecimal(n.toString()).toPlainString();
        return plain.indexOf('.') >= 0 ? plain : plain + ".0";
    }

    private static void binary(byte[] bytes, StringBuilder out) {
        out.append("{\"").append(BINARY).append("\":\"").append(Base64.getEncoder().encodeToString(bytes)).append("\"}");
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !validSurrogateAt(s, i)) {
                        // a lone surrogate is no Unicode text: PostgreSQL would refuse it, so it is replaced
                        out.append(Character.isSurrogate(c) ? "\\ufffd" : String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean validSurrogateAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static Object normalise(Object value) {
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get(BINARY) instanceof String b64) {
                return Base64.getDecoder().decode(b64);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), normalise(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(normalise(v)));
            return out;
        }
        return value;
    }
}
