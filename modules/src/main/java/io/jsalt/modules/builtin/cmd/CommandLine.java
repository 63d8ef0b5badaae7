package io.jsalt.modules.builtin.cmd;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command string into argv the way Salt does without a shell ({@code shlex.split}, POSIX
 * mode): whitespace separates words; single quotes keep everything literally; double quotes keep
 * everything but let a backslash escape {@code "} and {@code \}; outside quotes a backslash escapes
 * any character. Quoted and unquoted parts of one word join ({@code a"b c"d} is {@code ab cd}), and
 * {@code ""} is an empty argument. No variables, globs, pipes or comments: that is what
 * {@code python_shell=True} is for.
 */
public final class CommandLine {

    private enum State { NORMAL, SINGLE, DOUBLE }

    private CommandLine() {
    }

    /**
     * The argv of {@code command}.
     *
     * @throws IllegalArgumentException on an unclosed quote or a trailing backslash (shlex's messages)
     */
    public static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        State state = State.NORMAL;
        int length = command.length();
        for (int i = 0; i < length; i++) {
            char c = command.charAt(i);
            switch (state) {
                case NORMAL -> {
                    if (isWhitespace(c)) {
                        if (inWord) {
                            words.add(word.toString());
                            word.setLength(0);
                            inWord = false;
                        }
                    } else if (c == '\'') {
                        state = State.SINGLE;
                        inWord = true;
                    } else if (c == '"') {
                        state = State.DOUBLE;
                        inWord = true;
                    } else if (c == '\\') {
                        if (i + 1 >= length) {
                            throw new IllegalArgumentException("No escaped character");
                        }
                        word.append(command.charAt(++i));
                        inWord = true;
                    } else {
                        word.append(c);
                        inWord = true;
                    }
                }
                case SINGLE -> {
                    if (c == '\'') {
                        state = State.NORMAL;
                    } else {
                        word.append(c);
                    }
                }
                case DOUBLE -> {
                    if (c == '"') {
                        state = State.NORMAL;
                    } else if (c == '\\' && i + 1 < length
                            && (command.charAt(i + 1) == '"' || command.charAt(i + 1) == '\\')) {
                        word.append(command.charAt(++i));
                    } else {
                        word.append(c);
                    }
                }
            }
        }
        if (state != State.NORMAL) {
            throw new IllegalArgumentException("No closing quotation");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Python's {@code shlex.quote}: the word as one shell word, single-quoted unless it is plainly safe. */
    public static String quote(String word) {
        if (!word.isEmpty() && word.chars().allMatch(c -> Character.isLetterOrDigit(c) || "@%+=:,./-_".indexOf(c) >= 0)
                && word.chars().allMatch(c -> c < 128)) {
            return word;
        }
        return "'" + word.replace("'", "'\"'\"'") + "'";
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
