package io.jsalt.states.render;

import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.tree.TagNode;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Salt's {@code {% import_yaml 'path' as name %}} and {@code {% import_json 'path' as name %}}: the file is read
 * through the file server (as {@code {% include %}}) and parsed into the variable.
 */
final class ImportDataTag implements Tag {
    private static final Pattern HELPERS = Pattern.compile("\\s*(['\"])(.+?)\\1\\s+as\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*");

    private final String format;

    ImportDataTag(String format) {
        this.format = format;
    }

    @Override
    public String getName() {
        return "import_" + format;
    }

    @Override
    public String getEndTagName() {
        return null;
    }

    @Override
    public String interpret(TagNode node, JinjavaInterpreter interpreter) {
        Matcher m = HELPERS.matcher(node.getHelpers());
        if (!m.matches()) {
            throw new InterpretException("Syntax: {% " + getName() + " 'path' as name %}", node.getLineNumber());
        }
        String path = m.group(2);
        String text;
        try {
            text = interpreter.getResource(path);
        } catch (IOException e) {
            throw new InterpretException(getName() + " of '" + path + "': " + e.getMessage(), e, node.getLineNumber());
        }
        interpreter.getContext().put(m.group(3), DataRenderer.load(text, format, path));
        return "";
    }
}
