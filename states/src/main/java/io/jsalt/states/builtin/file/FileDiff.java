package io.jsalt.states.builtin.file;

import io.jsalt.modules.builtin.file.UnifiedDiff;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The {@code diff} the file states put in their changes, as Salt writes it. */
public final class FileDiff {
    private FileDiff() {
    }

    /** Salt's {@code file.get_diff}: a unified diff without file names, or {@code Replace binary file}. */
    public static String of(byte[] before, byte[] after) {
        if (!isText(before) || !isText(after)) {
            return "Replace binary file";
        }
        return UnifiedDiff.of(new String(before, StandardCharsets.UTF_8), new String(after, StandardCharsets.UTF_8));
    }

    /**
     * Salt's {@code "\n".join(difflib.unified_diff(a, b))} over lines without their endings ({@code file.append}):
     * the header lines keep their own new line, so a blank line follows each of them.
     */
    public static String ofLines(List<String> before, List<String> after) {
        String diff = UnifiedDiff.of(joined(before), joined(after));
        if (diff.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        String[] lines = diff.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i > 0) {
                out.append('\n');
            }
            out.append(line);
            if (i < 2 || line.startsWith("@@ ")) { // the two file lines, then each hunk's header
                out.append('\n');
            }
        }
        // the diff's own last new line is not difflib's: it came from joining the lines
        return out.substring(0, out.length() - 1);
    }

    private static String joined(List<String> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        return text.toString();
    }

    static boolean isText(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            return false;
        }
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        return true;
    }
}
