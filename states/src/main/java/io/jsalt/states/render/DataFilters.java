package io.jsalt.states.render;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.util.List;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/**
 * Salt's data filters that Jinjava lacks: {@code yaml} (flow style, as Salt's default), {@code json} (Salt's name
 * for {@code tojson}), {@code load_yaml} and {@code load_json}.
 */
final class DataFilters {
    private DataFilters() {
    }

    static List<Filter> all() {
        return List.of(
                filter("yaml", (value, interpreter) -> new Dump(DumpSettings.builder()
                        .setDefaultFlowStyle(FlowStyle.FLOW).build()).dumpToString(value).strip()),
                filter("json", (value, interpreter) -> JsonText.of(value)),
                filter("load_yaml", (value, interpreter) -> DataRenderer.load(String.valueOf(value), "yaml",
                        "load_yaml")),
                filter("load_json", (value, interpreter) -> DataRenderer.load(String.valueOf(value), "json",
                        "load_json")));
    }

    private interface Body {
        Object apply(Object value, JinjavaInterpreter interpreter);
    }

    private static Filter filter(String name, Body body) {
        return new Filter() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Object filter(Object value, JinjavaInterpreter interpreter, String... args) {
                return body.apply(value, interpreter);
            }
        };
    }
}
