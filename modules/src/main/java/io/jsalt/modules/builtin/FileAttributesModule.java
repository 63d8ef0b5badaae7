package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.file.FileErrors;
import io.jsalt.modules.builtin.file.FileFinder;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.modules.builtin.file.FileOwnership;
import io.jsalt.modules.builtin.file.FilePaths;
import io.jsalt.modules.builtin.file.FileStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Salt's {@code file} module, the functions about a path's existence, attributes and hashes. */
@SaltModule(name = "file", doc = "Manage information about regular files, directories and special files.")
public final class FileAttributesModule implements ExecutionModule {

    private static final Map<String, String> DIGESTS = Map.of("md5", "MD5", "sha1", "SHA-1", "sha224", "SHA-224",
            "sha256", "SHA-256", "sha384", "SHA-384", "sha512", "SHA-512");
    private static final Set<String> FIND_OPTIONS = Set.of("name", "iname", "type", "maxdepth", "mindepth");

    @SaltFunction(doc = "Return True if the path exists (a link counts if its target exists).\n\n"
            + "CLI Example: salt '*' file.exists /path/to/file")
    public boolean exists(@Arg("path") String path) {
        return Files.exists(FilePaths.absolute(path));
    }

    @SaltFunction(doc = "Return True if the path is a regular file (or a link to one).\n\n"
            + "CLI Example: salt '*' file.file_exists /etc/passwd")
    public boolean file_exists(@Arg("path") String path) {
        return Files.isRegularFile(FilePaths.absolute(path));
    }

    @SaltFunction(doc = "Return True if the path is a directory (or a link to one).\n\n"
            + "CLI Example: salt '*' file.directory_exists /etc")
    public boolean directory_exists(@Arg("path") String path) {
        return Files.isDirectory(FilePaths.absolute(path));
    }

    @SaltFunction(doc = "Return a dict of inode, uid, gid, group, user, atime, mtime, ctime, size, mode, type "
            + "and target (the real path); sum too when hash_type is given. Types: file, dir, link, char, block, "
            + "pipe, socket. "
            + "follow_symlinks=False describes a link itself.\n\nCLI Example: salt '*' file.stats /etc/passwd")
    public Map<String, Object> stats(@Arg("path") String path,
                                     @Arg(value = "hash_type", defaultValue = Arg.NULL) String hashType,
                                     @Arg(value = "follow_symlinks", defaultValue = "true") boolean followSymlinks) {
        Path file = FilePaths.absolute(path);
        try {
            Map<String, Object> stats = FileStats.of(file, followSymlinks);
            if (hashType != null && Files.isRegularFile(file)) {
                stats.put("sum", get_hash(path, hashType, 65536));
            }
            return stats;
        } catch (IOException e) {
            throw FileErrors.failure("stat", file, e);
        }
    }

    @SaltFunction(doc = "Same as file.stats.\n\nCLI Example: salt '*' file.stat /etc/passwd")
    public Map<String, Object> stat(@Arg("path") String path,
                                    @Arg(value = "hash_type", defaultValue = Arg.NULL) String hashType,
                                    @Arg(value = "follow_symlinks", defaultValue = "true") boolean followSymlinks) {
        return stats(path, hashType, followSymlinks);
    }

    @SaltFunction(doc = "Return the hex digest of the file: form is md5, sha1, sha224, sha256 (default), sha384 "
            + "or sha512.\n\nCLI Example: salt '*' file.get_hash /etc/shadow form=sha512")
    public String get_hash(@Arg("path") String path,
                           @Arg(value = "form", defaultValue = "sha256") String form,
                           @Arg(value = "chunk_size", defaultValue = "65536") int chunkSize) {
        Path file = FilePaths.absolute(path);
        String algorithm = DIGESTS.get(form == null ? "" : form.toLowerCase(Locale.ROOT));
        if (algorithm == null) {
            throw new CommandExecutionException("Invalid hash type '" + form + "': expected one of "
                    + "md5, sha1, sha224, sha256, sha384, sha512");
        }
        if (Files.isDirectory(file)) {
            throw new CommandExecutionException("Cannot hash the directory " + path);
        }
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance(algorithm);
            byte[] buffer = new byte[Math.max(4096, Math.min(chunkSize, 1 << 20))];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                digest.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw FileErrors.failure("hash", file, e);
        } catch (NoSuchAlgorithmException e) {
            throw new CommandExecutionException("This JVM cannot compute " + algorithm, e);
        }
    }

    @SaltFunction(doc = "Return the mode of the file as four octal digits, e.g. '0644'.\n\n"
            + "CLI Example: salt '*' file.get_mode /etc/passwd")
    public String get_mode(@Arg("path") String path,
                           @Arg(value = "follow_symlinks", defaultValue = "true") boolean followSymlinks) {
        return (String) stats(path, null, followSymlinks).get("mode");
    }

    @SaltFunction(doc = "Set the mode of the file (e.g. 0644 or '4755') and return the new mode. Refuses a "
            + "symbolic link unless follow_symlinks=True.\n\nCLI Example: salt '*' file.set_mode /etc/passwd 0644")
    public String set_mode(@Arg("path") String path, @Arg("mode") Object mode,
                           @Arg(value = "follow_symlinks", defaultValue = "false") boolean followSymlinks) {
        Path file = FilePaths.absolute(path);
        if (!FilePaths.occupied(file)) {
            throw new CommandExecutionException(path + ": File not found");
        }
        file = FilePaths.refuseSymlink(file, followSymlinks, "file.set_mode");
        int bits = FileModes.parse(mode);
        try {
            FileModes.apply(file, bits);
            return FileModes.format(FileModes.of(file));
        } catch (IOException e) {
            throw FileErrors.failure("set the mode of", file, e);
        }
    }

    @SaltFunction(doc = "Change the owner and group of the file (names or numbers; an empty one is left as it "
            + "is). A symbolic link itself is changed unless follow_symlinks=True. Returns None.\n\n"
            + "CLI Example: salt '*' file.chown /etc/passwd root root")
    public Object chown(@Arg("path") String path, @Arg("user") String user, @Arg("group") String group,
                        @Arg(value = "follow_symlinks", defaultValue = "false") boolean followSymlinks) {
        Path file = FilePaths.absolute(path);
        if (!FilePaths.occupied(file)) {
            throw new CommandExecutionException("File not found: " + path);
        }
        try {
            FileOwnership.change(file, user, group, followSymlinks);
            return null;
        } catch (IOException e) {
            throw FileErrors.failure("change the owner of", file, e);
        }
    }

    @SaltFunction(doc = "Find files under path, like find(1), without following links. Supported criteria: "
            + "name=<glob>, iname=<glob> (case-insensitive), type=<f|d|l, combinable as fd>, maxdepth=<n>, "
            + "mindepth=<n>. Returns the sorted list of matching paths.\n\n"
            + "CLI Example: salt '*' file.find /etc name='*.conf' type=f maxdepth=2")
    public List<String> find(@Arg("path") String path, @KwArgs("kwargs") Map<String, Object> kwargs) {
        Path start = FilePaths.absolute(path);
        for (String key : kwargs.keySet()) {
            if (!FIND_OPTIONS.contains(key) && !key.startsWith("__pub_")) {
                throw new CommandExecutionException("Unsupported find criterion '" + key
                        + "': jsalt's file.find supports " + String.join(", ", FIND_OPTIONS.stream().sorted().toList()));
            }
        }
        Predicate<String> name = null;
        if (kwargs.get("name") != null) {
            Glob glob = Glob.of(String.valueOf(kwargs.get("name")));
            name = glob::matches;
        } else if (kwargs.get("iname") != null) {
            Glob glob = Glob.of(String.valueOf(kwargs.get("iname")).toLowerCase(Locale.ROOT));
            name = candidate -> glob.matches(candidate.toLowerCase(Locale.ROOT));
        }
        FileFinder.Criteria criteria = new FileFinder.Criteria(name,
                FileFinder.kinds(kwargs.get("type") == null ? null : String.valueOf(kwargs.get("type"))),
                depth(kwargs, "mindepth", 0), depth(kwargs, "maxdepth", Integer.MAX_VALUE));
        if (!Files.exists(start, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try {
            return FileFinder.find(start, criteria);
        } catch (IOException e) {
            throw FileErrors.failure("search", start, e);
        }
    }

    private static int depth(Map<String, Object> kwargs, String key, int fallback) {
        Object value = kwargs.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            int depth = Integer.parseInt(String.valueOf(value).strip());
            if (depth >= 0) {
                return depth;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CommandExecutionException(key + " must be a non-negative integer, got " + value);
    }
}
