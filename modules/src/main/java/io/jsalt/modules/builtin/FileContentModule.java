package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.FileErrors;
import io.jsalt.modules.builtin.file.FilePaths;
import io.jsalt.modules.builtin.file.PythonRegex;
import io.jsalt.modules.builtin.file.ReplacementTemplate;
import io.jsalt.modules.builtin.file.UnifiedDiff;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Salt's {@code file} module, the functions that look inside a file: regex search and replace, and
 * line counts. The regex runs over the whole file at once (as Salt's mmap does), with Python's syntax
 * and flags; the default flags, 8, are {@code re.MULTILINE}.
 */
@SaltModule(name = "file", doc = "Manage information about regular files, directories and special files.")
public final class FileContentModule implements ExecutionModule {

    @SaltFunction(doc = "Replace occurrences of a regex pattern in a file (Python syntax; repl may use \\1 or "
            + "\\g<name>). count=0 replaces all. Returns a unified diff of the change (show_changes=True) or "
            + "whether anything changed. Options: flags (int or names, default 8 = MULTILINE), "
            + "append_if_not_found, prepend_if_not_found, not_found_content, backup ('.bak'; False for none), "
            + "dry_run, search_only, ignore_if_missing, backslash_literal, follow_symlinks (refused otherwise). "
            + "The file is rewritten atomically and keeps its mode.\n\n"
            + "CLI Example: salt '*' file.replace /etc/httpd/httpd.conf pattern='LogLevel warn' repl='LogLevel info'")
    public Object replace(@Arg("path") String path, @Arg("pattern") String pattern, @Arg("repl") String repl,
                          @Arg(value = "count", defaultValue = "0") int count,
                          @Arg(value = "flags", defaultValue = "8") Object flags,
                          @Arg(value = "bufsize", defaultValue = "1") Object bufsize,
                          @Arg(value = "append_if_not_found", defaultValue = "false") boolean appendIfNotFound,
                          @Arg(value = "prepend_if_not_found", defaultValue = "false") boolean prependIfNotFound,
                          @Arg(value = "not_found_content", defaultValue = Arg.NULL) String notFoundContent,
                          @Arg(value = "backup", defaultValue = ".bak") Object backup,
                          @Arg(value = "dry_run", defaultValue = "false") boolean dryRun,
                          @Arg(value = "search_only", defaultValue = "false") boolean searchOnly,
                          @Arg(value = "show_changes", defaultValue = "true") boolean showChanges,
                          @Arg(value = "ignore_if_missing", defaultValue = "false") boolean ignoreIfMissing,
                          @Arg(value = "backslash_literal", defaultValue = "false") boolean backslashLiteral,
                          @Arg(value = "follow_symlinks", defaultValue = "false") boolean followSymlinks) {
        Path file = FilePaths.absolute(path);
        if (count < 0) {
            throw new CommandExecutionException("count must be 0 (all) or positive, got " + count);
        }
        if (!Files.exists(file)) {
            if (ignoreIfMissing) {
                return false;
            }
            throw new CommandExecutionException(path + " does not exist");
        }
        if (!searchOnly && !dryRun) {
            file = FilePaths.refuseSymlink(file, followSymlinks, "file.replace");
        }
        if (!Files.isRegularFile(file)) {
            throw new CommandExecutionException(path + " is not a regular file");
        }
        Pattern regex = PythonRegex.compile(pattern, flags);
        String before = readText(file);
        Matcher matcher = regex.matcher(before);
        if (searchOnly) {
            return matcher.find();
        }
        ReplacementTemplate template = ReplacementTemplate.parse(repl == null ? "" : repl, backslashLiteral);
        StringBuilder after = new StringBuilder();
        int replaced = 0;
        while ((count == 0 || replaced < count) && matcher.find()) {
            matcher.appendReplacement(after, "");
            after.append(template.expand(matcher));
            replaced++;
        }
        matcher.appendTail(after);
        String updated = after.toString();
        String content = notFoundContent == null ? repl : notFoundContent;
        if (replaced == 0 && (appendIfNotFound || prependIfNotFound) && !hasLine(before, content, flags)) {
            updated = withNotFoundContent(before, content, prependIfNotFound);
        }
        boolean changed = !updated.equals(before);
        if (changed && !dryRun) {
            save(file, updated, backup);
        }
        return showChanges ? UnifiedDiff.of(before, updated) : changed;
    }

    @SaltFunction(doc = "Return True if the regex pattern (Python syntax) occurs in the file. multiline=True "
            + "adds MULTILINE.\n\nCLI Example: salt '*' file.search /etc/crontab 'mymaintenance.sh'")
    public boolean search(@Arg("path") String path, @Arg("pattern") String pattern,
                          @Arg(value = "flags", defaultValue = "8") Object flags,
                          @Arg(value = "bufsize", defaultValue = "1") Object bufsize,
                          @Arg(value = "ignore_if_missing", defaultValue = "false") boolean ignoreIfMissing,
                          @Arg(value = "multiline", defaultValue = "false") boolean multiline) {
        Path file = FilePaths.absolute(path);
        if (!Files.exists(file)) {
            if (ignoreIfMissing) {
                return false;
            }
            throw new CommandExecutionException(path + " does not exist");
        }
        if (!Files.isRegularFile(file)) {
            throw new CommandExecutionException(path + " is not a regular file");
        }
        Object effective = multiline ? java.util.List.of(flags, "MULTILINE") : flags;
        return PythonRegex.compile(pattern, effective).matcher(readText(file)).find();
    }

    @SaltFunction(doc = "Return the number of lines in the file, as wc -l counts them plus a last line that "
            + "has no newline (jsalt's own function; Salt has none).\n\n"
            + "CLI Example: salt '*' file.line_count /etc/passwd")
    public long line_count(@Arg("path") String path) {
        Path file = FilePaths.absolute(path);
        if (Files.isDirectory(file)) {
            throw new CommandExecutionException(path + " is a directory");
        }
        long lines = 0;
        int last = '\n';
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[65536];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
                if (read > 0) {
                    last = buffer[read - 1];
                }
            }
        } catch (IOException e) {
            throw FileErrors.failure("read", file, e);
        }
        return last == '\n' ? lines : lines + 1;
    }

    /** Salt's test before appending: the content already is a whole line (matched with the pattern's flags). */
    private static boolean hasLine(String text, String content, Object flags) {
        Pattern line = PythonRegex.compile("^" + Pattern.quote(content == null ? "" : content) + "($|(?=\r\n))", flags);
        return line.matcher(text).find();
    }

    /** Salt's append/prepend_if_not_found: the content on its own line at the end or the start. */
    private static String withNotFoundContent(String text, String content, boolean prepend) {
        String line = content.endsWith("\n") ? content : content + "\n";
        if (prepend) {
            return line + text;
        }
        return text.isEmpty() || text.endsWith("\n") ? text + line : text + "\n" + line;
    }

    private static void save(Path file, String after, Object backup) {
        try {
            if (backup != null && !Boolean.FALSE.equals(backup) && !String.valueOf(backup).isEmpty()
                    && !"false".equalsIgnoreCase(String.valueOf(backup))) {
                Path copy = file.resolveSibling(file.getFileName() + String.valueOf(backup));
                if (Files.isSymbolicLink(copy)) {
                    throw new CommandExecutionException("file.replace: refusing to write the backup through the "
                            + "symbolic link " + copy);
                }
                // a copy, not a write: the backup of a 0600 file must not become readable by all
                AtomicFileWriter.copy(file, copy, false);
            }
            AtomicFileWriter.write(file, after.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw FileErrors.failure("write", file, e);
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new CommandExecutionException(file + " is not UTF-8 text; file.replace and file.search only "
                    + "work on text");
        } catch (IOException e) {
            throw FileErrors.failure("read", file, e);
        }
    }
}
