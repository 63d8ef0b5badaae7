package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/** {@code --out yaml}: block-style YAML, one document per minion, or one with {@code --static}. */
public final class YamlOutputter implements Outputter {
    private final Dump dump = new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build());

    @Override
    public void one(PrintStream out, String minion, Object ret) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(minion, ret);
        all(out, m);
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        out.print(dump.dumpToString(returns));
        out.flush();
    }
}
