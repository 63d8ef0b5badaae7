package io.jsalt.cli.jsalt;

import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.output.StateOutputOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a plain {@code jsalt} command line without picocli: each option spelled out whole (no {@code --name=value},
 * no clustered short options), the value of one that takes a value in the next word, and every other word an
 * argument that begins with neither {@code -} nor {@code @}. picocli's start and its model of jsalt's options,
 * read from their annotations, were the largest part of a run's start-up (docs/BENCHMARKS.md, session 13),
 * and the command lines operators and scripts type are plain. Anything else is declined, and picocli reads it
 * as before with its own result, help or error: help, the version, {@code --versions-report}, {@code --},
 * {@code @file}, an empty word, an option given twice, a value that begins with {@code -} or {@code @}, a
 * number that is not plain decimal digits, no target. PlainArgumentsTest proves, for every option of the
 * annotated model, that what this reads is what picocli reads.
 */
final class PlainArguments {
    /** A word for which an option that takes no value is recorded. */
    private static final String FLAG = "";
    /** The keys of the options whose values are numbers (int or Integer). */
    private static final List<String> NUMBERS = List.of("-t", "--batch-wait", "--out-indent");

    /** Options given, by their key (their first name in JsaltCommand's annotations), with their values. */
    private final Map<String, String> given = new HashMap<>();
    private final List<String> positional = new ArrayList<>();

    private PlainArguments() {}

    /** Sets the command's options and arguments from a plain command line; false (and nothing set) for any other. */
    static boolean read(String[] argv, JsaltCommand into) {
        PlainArguments line = new PlainArguments();
        if (!line.scan(argv) || line.positional.isEmpty()) {
            return false;
        }
        return line.applyTo(into);
    }

    private boolean scan(String[] argv) {
        for (int i = 0; i < argv.length; i++) {
            String word = argv[i];
            if (!plain(word)) {
                return false;
            }
            if (word.charAt(0) != '-') {
                positional.add(word);
                continue;
            }
            String key = key(word);
            if (key == null) {
                return false;
            }
            String value = FLAG;
            if (takesValue(key)) {
                if (i + 1 == argv.length || !plain(argv[i + 1]) || argv[i + 1].charAt(0) == '-') {
                    return false;
                }
                value = argv[++i];
            }
            if (given.put(key, value) != null) {
                return false;
            }
        }
        return true;
    }

    /** A word picocli reads as written: not empty, not an argument file ({@code @file}), not the end of the options. */
    private static boolean plain(String word) {
        return !word.isEmpty() && word.charAt(0) != '@' && !word.equals("--");
    }

    /**
     * The key of the option a word names (its first name in the annotations), or null for a word that names none
     * this class reads: the help options (-h, -V, --versions-report) are left to picocli.
     */
    static String key(String word) {
        return switch (word) {
            case "-c", "--config-dir" -> "-c";
            case "-E", "--pcre" -> "-E";
            case "-L", "--list" -> "-L";
            case "-G", "--grain" -> "-G";
            case "-P", "--grain-pcre" -> "-P";
            case "-I", "--pillar" -> "-I";
            case "-J", "--pillar-pcre" -> "-J";
            case "-S", "--ipcidr" -> "-S";
            case "-C", "--compound" -> "-C";
            case "-N", "--nodegroup" -> "-N";
            case "--preview-target" -> "--preview-target";
            case "-t", "--timeout" -> "-t";
            case "-b", "--batch", "--batch-size" -> "-b";
            case "--batch-wait" -> "--batch-wait";
            case "--failhard" -> "--failhard";
            case "-p", "--progress" -> "-p";
            case "--out" -> "--out";
            case "--state-output", "--state_output" -> "--state-output";
            case "--state-verbose", "--state_verbose" -> "--state-verbose";
            case "--out-indent" -> "--out-indent";
            case "--out-file" -> "--out-file";
            case "--no-color", "--no-colour" -> "--no-color";
            case "--force-color", "--force-colour" -> "--force-color";
            case "-s", "--static" -> "-s";
            case "--async" -> "--async";
            case "-v", "--verbose" -> "-v";
            case "--show-jid" -> "--show-jid";
            case "--summary" -> "--summary";
            case "--hide-timeout" -> "--hide-timeout";
            case "-a", "--auth", "--eauth", "--external-auth" -> "-a";
            case "-T", "--make-token" -> "-T";
            case "--username" -> "--username";
            case "--password" -> "--password";
            default -> null;
        };
    }

    /** Whether the option of this key takes a value (picocli's arity 1); the others are flags (arity 0). */
    static boolean takesValue(String key) {
        return switch (key) {
            case "-c", "-t", "-b", "--batch-wait", "--out", "--state-output", "--state-verbose", "--out-indent", "--out-file",
                    "-a", "--username", "--password" -> true;
            default -> false;
        };
    }

    private boolean applyTo(JsaltCommand c) {
        for (String key : NUMBERS) {
            if (given.containsKey(key) && !digits(given.get(key))) {
                return false;
            }
        }
        c.configDir = Path.of(given.getOrDefault("-c", ConfigLoader.DEFAULT_DIR));
        TargetOptions t = c.targeting;
        t.pcre = given.containsKey("-E");
        t.list = given.containsKey("-L");
        t.grain = given.containsKey("-G");
        t.grainPcre = given.containsKey("-P");
        t.pillar = given.containsKey("-I");
        t.pillarPcre = given.containsKey("-J");
        t.ipcidr = given.containsKey("-S");
        t.compound = given.containsKey("-C");
        t.nodegroup = given.containsKey("-N");
        c.previewTarget = given.containsKey("--preview-target");
        c.timeout = given.containsKey("-t") ? Integer.valueOf(given.get("-t")) : null;
        c.batch = given.get("-b");
        c.batchWait = Integer.parseInt(given.getOrDefault("--batch-wait", "0"));
        c.failhard = given.containsKey("--failhard");
        c.progress = given.containsKey("-p");
        c.out = given.get("--out");
        c.stateOutput = new StateOutputOptions(given.get("--state-output"), given.get("--state-verbose"));
        c.outIndent = Integer.parseInt(given.getOrDefault("--out-indent", "4"));
        c.outFile = given.containsKey("--out-file") ? Path.of(given.get("--out-file")) : null;
        c.noColor = given.containsKey("--no-color");
        c.forceColor = given.containsKey("--force-color");
        c.staticOutput = given.containsKey("-s");
        c.async = given.containsKey("--async");
        c.verbose = given.containsKey("-v");
        c.showJid = given.containsKey("--show-jid");
        c.summary = given.containsKey("--summary");
        c.hideTimeout = given.containsKey("--hide-timeout");
        c.eauth = given.get("-a");
        c.makeToken = given.containsKey("-T");
        c.username = given.get("--username");
        c.password = given.get("--password");
        c.target = positional.get(0);
        c.function = positional.size() > 1 ? positional.get(1) : null;
        c.args = new ArrayList<>(positional.subList(Math.min(2, positional.size()), positional.size()));
        return true;
    }

    /** Plain decimal digits, few enough for an int: what picocli's Integer.valueOf reads the same way (others are declined). */
    private static boolean digits(String value) {
        if (value.isEmpty() || value.length() > 9) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
