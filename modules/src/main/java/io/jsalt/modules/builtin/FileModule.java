package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.DirectoryTree;
import io.jsalt.modules.builtin.file.FileErrors;
import io.jsalt.modules.builtin.file.FilePaths;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.modules.builtin.file.FileOwnership;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Salt's {@code file} module, the functions that create, fill, move and delete files. Its attribute
 * functions are in {@link FileAttributesModule} and its regex functions in {@link FileContentModule}.
 *
 * <p>Every path must be absolute. A function that modifies a path refuses to do it through a symbolic
 * link unless the caller passes {@code follow_symlinks=True}; {@code remove} deletes the link itself.
 * Content is replaced atomically (temporary file, then rename) and an existing file keeps its mode.
 */
@SaltModule(name = "file", doc = "Manage information about regular files, directories and special files.")
public final class FileModule implements ExecutionModule {

    @SaltFunction(doc = "Return the content of the file (as bytes with binary=True).\n\n"
            + "CLI Example: salt '*' file.read /path/to/file")
    public Object read(@Arg("path") String path, @Arg(value = "binary", defaultValue = "false") boolean binary) {
        Path file = FilePaths.absolute(path);
        try {
            byte[] content = Files.readAllBytes(file);
            return binary ? content : new String(content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw FileErrors.failure("read", file, e);
        }
    }

    @SaltFunction(doc = "Write the given lines to the file, replacing its content (created if missing; each "
            + "line ends with a newline). Refuses a symbolic link unless follow_symlinks=True.\n\n"
            + "CLI Example: salt '*' file.write /etc/motd \"With all thine offerings thou shalt offer salt.\"")
    public String write(@Arg("path") String path, @VarArgs("args") List<Object> lines,
                        @Arg(value = "follow_symlinks", defaultValue = "false") boolean followSymlinks) {
        Path file = FilePaths.refuseSymlink(FilePaths.absolute(path), followSymlinks, "file.write");
        try {
            AtomicFileWriter.write(file, joined(lines).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw FileErrors.failure("write", file, e);
        }
        return "Wrote " + lines.size() + " lines to \"" + path + "\"";
    }

    @SaltFunction(doc = "Append lines to the file, first ending its last line if it has no newline (created if "
            + "missing). Refuses a symbolic link unless follow_symlinks=True.\n\n"
            + "CLI Example: salt '*' file.append /etc/motd \"line one\" \"line two\"")
    public String append(@Arg("path") String path, @VarArgs("args") List<Object> lines,
                         @Arg(value = "follow_symlinks", defaultValue = "false") boolean followSymlinks) {
        Path file = FilePaths.refuseSymlink(FilePaths.absolute(path), followSymlinks, "file.append");
        try {
            String existing = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            String separator = existing.isEmpty() || existing.endsWith("\n") ? "" : "\n";
            AtomicFileWriter.write(file, (existing + separator + joined(lines)).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw FileErrors.failure("append to", file, e);
        }
        return "Wrote " + lines.size() + " lines to \"" + path + "\"";
    }

    @SaltFunction(doc = "Create the file if it is missing and set its access and modification times (epoch "
            + "seconds; now by default). A symbolic link's own times are set. Returns True.\n\n"
            + "CLI Example: salt '*' file.touch /var/log/emptyfile")
    public boolean touch(@Arg("name") String name,
                         @Arg(value = "atime", defaultValue = Arg.NULL) Double atime,
                         @Arg(value = "mtime", defaultValue = Arg.NULL) Double mtime) {
        Path file = FilePaths.absolute(name);
        try {
            if (!FilePaths.occupied(file)) {
                Files.createFile(file);
            }
            FileTime now = FileTime.fromMillis(System.currentTimeMillis());
            Files.getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(time(mtime, now), time(atime, now), null);
            return true;
        } catch (IOException e) {
            throw FileErrors.failure("touch", file, e);
        }
    }

    @SaltFunction(doc = "Remove the file, or the directory and everything in it. A symbolic link is removed, "
            + "never its target. Returns True if something was removed, False if nothing was there.\n\n"
            + "CLI Example: salt '*' file.remove /tmp/foo")
    public boolean remove(@Arg("path") String path) {
        Path target = FilePaths.absolute(path);
        if (target.getParent() == null) {
            throw new CommandExecutionException("Refusing to remove the root directory");
        }
        try {
            if (!FilePaths.occupied(target)) {
                return false;
            }
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                DirectoryTree.delete(target);
            } else {
                Files.delete(target);
            }
            return true;
        } catch (IOException e) {
            throw FileErrors.failure("remove", target, e);
        }
    }

    @SaltFunction(doc = "Create the directory and any missing parents (like mkdir -p), optionally setting the "
            + "owner, group and mode of the directories created. Returns True.\n\n"
            + "CLI Example: salt '*' file.mkdir /opt/jetty/context user=jetty mode=0750")
    public boolean mkdir(@Arg("dir_path") String dirPath,
                         @Arg(value = "user", defaultValue = Arg.NULL) String user,
                         @Arg(value = "group", defaultValue = Arg.NULL) String group,
                         @Arg(value = "mode", defaultValue = Arg.NULL) Object mode) {
        Path dir = FilePaths.absolute(dirPath);
        if (Files.isDirectory(dir)) {
            return true;
        }
        createTree(dir, user, group, mode);
        return true;
    }

    @SaltFunction(doc = "Ensure that the parent directory of path exists (path ending in '/' is itself a "
            + "directory). Returns None when directories were created, or a message saying why not.\n\n"
            + "CLI Example: salt '*' file.makedirs /opt/code/")
    public String makedirs(@Arg("path") String path,
                           @Arg(value = "user", defaultValue = Arg.NULL) String user,
                           @Arg(value = "group", defaultValue = Arg.NULL) String group,
                           @Arg(value = "mode", defaultValue = Arg.NULL) Object mode) {
        Path absolute = FilePaths.absolute(path);
        Path dir = path.endsWith("/") ? absolute : absolute.getParent();
        if (dir == null || Files.isDirectory(dir)) {
            return "Directory '" + (dir == null ? "/" : dir) + "' already exists";
        }
        if (Files.exists(dir)) {
            return "The path '" + dir + "' already exists and is not a directory";
        }
        createTree(dir, user, group, mode);
        return null;
    }

    @SaltFunction(doc = "Copy a file, or a directory tree with recurse=True (links are copied as links). "
            + "remove_existing=True first removes an existing destination. The copy gets the source's mode (and "
            + "owner and group, as root). The destination must not be a symbolic link. Returns True.\n\nCLI Example: salt '*' file.copy /path/to/src /path/to/dst")
    public boolean copy(@Arg("src") String src, @Arg("dst") String dst,
                        @Arg(value = "recurse", defaultValue = "false") boolean recurse,
                        @Arg(value = "remove_existing", defaultValue = "false") boolean removeExisting) {
        Path source = FilePaths.absolute(src);
        Path target = FilePaths.absolute(dst);
        if (!Files.exists(source)) {
            throw new CommandExecutionException("No such file or directory '" + src + "'");
        }
        if (Files.isSymbolicLink(target)) {
            throw new CommandExecutionException("file.copy: refusing to copy onto the symbolic link " + dst);
        }
        try {
            if (removeExisting && FilePaths.occupied(target)) {
                remove(dst);
            }
            if (Files.isDirectory(source)) {
                if (!recurse) {
                    throw new CommandExecutionException("Cannot copy the directory " + src + " without recurse=True");
                }
                DirectoryTree.copy(source, target);
                return true;
            }
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new CommandExecutionException("Cannot copy the file " + src + " over the directory " + dst);
            }
            // Salt gives the copy the source's owner, group and mode (check_perms after copyfile)
            AtomicFileWriter.copy(source, target, false);
            return true;
        } catch (IOException e) {
            throw FileErrors.failure("copy " + src + " to", target, e);
        }
    }

    @SaltFunction(doc = "Rename (move) a file or directory; a symbolic link is moved, not its target. "
            + "Returns True.\n\nCLI Example: salt '*' file.rename /path/to/src /path/to/dst")
    public boolean rename(@Arg("src") String src, @Arg("dst") String dst) {
        Path source = FilePaths.absolute(src);
        Path target = FilePaths.absolute(dst);
        if (!FilePaths.occupied(source)) {
            throw new CommandExecutionException("Path not found: " + src);
        }
        try {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            throw FileErrors.failure("rename " + src + " to", target, e);
        }
    }

    private static void createTree(Path dir, String user, String group, Object mode) {
        Integer bits = mode == null ? null : FileModes.parse(mode);
        List<Path> created = new ArrayList<>();
        for (Path missing = dir; missing != null && !Files.exists(missing); missing = missing.getParent()) {
            created.add(0, missing);
        }
        try {
            Files.createDirectories(dir);
            for (Path each : created) {
                if (bits != null) {
                    FileModes.apply(each, bits);
                }
                if (user != null || group != null) {
                    FileOwnership.change(each, user, group, false);
                }
            }
        } catch (IOException e) {
            throw FileErrors.failure("create the directory", dir, e);
        }
    }

    private static String joined(List<Object> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        return text.toString();
    }

    private static FileTime time(Double epochSeconds, FileTime fallback) {
        return epochSeconds == null ? fallback : FileTime.fromMillis((long) (epochSeconds * 1000));
    }
}
