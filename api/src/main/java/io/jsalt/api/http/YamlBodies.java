package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import java.util.List;
import java.util.Locale;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * YAML as salt-api reads and writes it: request bodies of type {@code application/x-yaml} or
 * {@code text/yaml} (plain data only: snakeyaml-engine builds no objects from tags, and at most 50 aliases
 * per document stop alias bombs), and answers in block style when the client's {@code Accept} prefers
 * {@code application/x-yaml} (salt-api's {@code safe_dump(default_flow_style=False)}).
 */
final class YamlBodies {
    static final String TYPE = "application/x-yaml";

    private YamlBodies() {}

    static boolean isYaml(String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return type.startsWith("application/x-yaml") || type.startsWith("text/yaml");
    }

    static Object parse(String body) {
        LoadSettings settings = LoadSettings.builder().setAllowDuplicateKeys(false).setMaxAliasesForCollections(50).build();
        try {
            return new Load(settings).loadFromString(body);
        } catch (YamlEngineException e) {
            throw ApiException.badRequest("Invalid YAML document");
        }
    }

    static String write(Object value) {
        return new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build()).dumpToString(value);
    }

    /**
     * The answer's type for an {@code Accept} header, as CherryPy's accept tool picks from salt-api's
     * {@code ct_out_map}: JSON unless YAML is named before JSON; null when neither is acceptable (406).
     */
    static String negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return "application/json";
        }
        for (String part : accept.toLowerCase(Locale.ROOT).split(",")) {
            String type = part.split(";")[0].strip();
            if (List.of("application/json", "*/*", "application/*").contains(type)) {
                return "application/json";
            }
            if (type.equals(TYPE)) {
                return TYPE;
            }
        }
        return null;
    }
}
