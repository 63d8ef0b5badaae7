package io.jsalt.states.render;

import java.util.Optional;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.LoadSettingsBuilder;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The data end of a render pipe: YAML (Salt's {@code yaml}, with its scalars: {@link SaltYamlSchema}) or JSON
 * (Salt's {@code json}, read as the YAML 1.2 subset it is). Maps keep the file's order: state definition order depends on it.
 */
final class DataRenderer {
    private DataRenderer() {
    }

    /**
     * @param format "yaml" or "json", for the message
     * @throws RenderException naming the file, the line and the cause
     */
    static Object load(String text, String format, String path) {
        LoadSettingsBuilder builder = LoadSettings.builder().setLabel(path).setAllowDuplicateKeys(false);
        LoadSettings settings = (format.equals("yaml") ? builder.setSchema(SaltYamlSchema.INSTANCE) : builder).build();
        try {
            return new Load(settings).loadFromString(text);
        } catch (MarkedYamlEngineException e) {
            Optional<Mark> mark = e.getProblemMark();
            String where = mark.map(m -> "line " + (m.getLine() + 1) + ": ").orElse("");
            throw new RenderException("Rendering " + format + " failed in " + path + ": " + where + e.getProblem(), e);
        } catch (YamlEngineException e) {
            throw new RenderException("Rendering " + format + " failed in " + path + ": " + e.getMessage(), e);
        }
    }
}
