package io.jsalt.e2e.interop;

import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** Reads the JSON that {@code --out json} prints, on either side (JSON is YAML 1.2). */
final class Json {
    private Json() {
    }

    static Object parse(String json) {
        return new Load(LoadSettings.builder().setCodePointLimit(16 * 1024 * 1024).build()).loadFromString(json);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String json) {
        Object o = parse(json);
        if (!(o instanceof Map<?, ?>)) {
            throw new AssertionError("not a JSON object: " + json);
        }
        return (Map<String, Object>) o;
    }
}
