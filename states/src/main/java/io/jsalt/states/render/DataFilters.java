package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/**
 * Salt's data filters (its SerializerExtension and the json_* filters): {@code yaml} (flow style unless told
 * otherwise, keys sorted as PyYAML's {@code safe_dump}), {@code json} (keys sorted, as Salt's), {@code tojson}
 * (Salt's: ASCII only, HTML characters escaped), {@code python} (Python's repr, keys sorted as {@code pprint}),
 * {@code dict_to_sls_yaml_params}, {@code load_yaml}, {@code load_json}, {@code load_text}, and the
 * {@code json_encode_*}/{@code json_decode_*} filters.
 */
final class DataFilters {
    private DataFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("yaml", (value, args) -> yaml(sorted(value), PythonValues.truthy(args.get(0, "flow_style",
                        true)))),
                new SaltFilter("json", (value, args) -> JsonText.of(value, PythonValues.truthy(args.get(0, "sort_keys",
                        true)), false, indent(args.get(1, "indent", null)))),
                new SaltFilter("tojson", (value, args) -> JsonText.of(value, false, true, indent(args.get(0, "indent", null)))
                        .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")),
                new SaltFilter("python", (value, args) -> PythonValues.repr(sorted(value))),
                new SaltFilter("dict_to_sls_yaml_params", (value, args) -> {
                    List<Object> params = new ArrayList<>();
                    ListFilters.map(value).forEach((k, v) -> {
                        Map<Object, Object> one = new LinkedHashMap<>();
                        one.put(k, v);
                        params.add(one);
                    });
                    return yaml(params, PythonValues.truthy(args.get(0, "flow_style", false)));
                }),
                new SaltFilter("load_yaml", (value, args) -> DataRenderer.load(String.valueOf(value), "yaml", "load_yaml")),
                new SaltFilter("load_json", (value, args) -> DataRenderer.load(String.valueOf(value), "json", "load_json")),
                new SaltFilter("load_text", (value, args) -> PythonValues.str(value)),
                // Salt (Python 3) turns the texts into bytes, which no template can use; a template holds text, so
                // jsalt gives the data back as it is
                new SaltFilter("json_encode_dict", (value, args) -> ListFilters.map(value)),
                new SaltFilter("json_decode_dict", (value, args) -> ListFilters.map(value)),
                new SaltFilter("json_encode_list", (value, args) -> PythonValues.items(value)),
                new SaltFilter("json_decode_list", (value, args) -> PythonValues.items(value)));
    }

    private static Integer indent(Object v) {
        return v == null ? null : ((Number) TextFilters.toNum(v)).intValue();
    }

    /** PyYAML's {@code safe_dump(value, default_flow_style=flow)}, stripped, without the document end marker. */
    static String yaml(Object value, boolean flow) {
        String text = new Dump(DumpSettings.builder().setDefaultFlowStyle(flow ? FlowStyle.FLOW : FlowStyle.BLOCK)
                .build()).dumpToString(value).strip();
        return text.endsWith("\n...") ? text.substring(0, text.length() - 4) : text;
    }

    /** A copy whose dictionaries have their keys in Python's sorted order (PyYAML and pprint sort them). */
    static Object sorted(Object value) {
        if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            entries.sort((a, b) -> PythonValues.compare(a.getKey(), b.getKey()));
            Map<Object, Object> out = new LinkedHashMap<>();
            entries.forEach(e -> out.put(e.getKey(), sorted(e.getValue())));
            return out;
        }
        if (value instanceof PyTuple t) {
            return new PyTuple(t.stream().map(DataFilters::sorted).toList());
        }
        if (value instanceof List<?> list) {
            return new ArrayList<>(list.stream().map(DataFilters::sorted).toList());
        }
        return value;
    }
}
