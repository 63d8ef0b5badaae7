package io.jsalt.master.files;

import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.message.UnsafePathException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fileclient's AES commands, with Salt's wire (salt/master.py AESFuncs, salt/fileserver):
 * {@code _file_list} {@code {saltenv, prefix}} answers the list of paths; {@code _file_hash}
 * {@code {path, saltenv}} answers {@code {"hsum", "hash_type"}} or {@code ""} for a missing file;
 * {@code _serve_file} {@code {path, loc, saltenv}} answers {@code {"data", "dest"}}, with
 * {@code {"data": "", "dest": ""}} for a missing file. A refused path is answered as a missing file and
 * costs one WARN line; an unknown saltenv simply holds nothing.
 */
public final class FileServerCommands {
    private static final Logger log = LoggerFactory.getLogger(FileServerCommands.class);

    private final FileServer server;

    public FileServerCommands(FileServer server) {
        this.server = server;
    }

    /** {@code _file_list}. */
    public Object fileList(Map<String, Object> load, String nonce) {
        String saltenv = saltenv(load);
        if (saltenv == null) {
            return List.of(); // Salt answers [] without a saltenv
        }
        Object prefix = load.get("prefix");
        return server.list(saltenv, prefix instanceof String s ? s : "");
    }

    /** {@code _file_envs}: the saltenvs, which a minion needs to merge every saltenv's top file. */
    public Object fileEnvs(Map<String, Object> load, String nonce) {
        return server.envs();
    }

    /** {@code _file_hash}. */
    public Object fileHash(Map<String, Object> load, String nonce) {
        Optional<FileServer.Found> found = find(load);
        if (found.isEmpty()) {
            return "";
        }
        try {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("hsum", server.hash(found.get()));
            out.put("hash_type", FileServer.HASH_TYPE);
            return out;
        } catch (IOException e) {
            log.warn("cannot hash {}: {}", found.get().file(), e.toString());
            return "";
        }
    }

    /** {@code _serve_file}. */
    public Object serveFile(Map<String, Object> load, String nonce) {
        Object loc = load.get("loc");
        if (!(loc instanceof Long || loc instanceof Integer) || ((Number) loc).longValue() < 0) {
            return missing();
        }
        Optional<FileServer.Found> found = find(load);
        if (found.isEmpty()) {
            return missing();
        }
        try {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("data", server.read(found.get(), ((Number) loc).longValue()));
            out.put("dest", found.get().rel());
            return out;
        } catch (IOException e) {
            log.warn("cannot read {}: {}", found.get().file(), e.toString());
            return missing();
        }
    }

    private Optional<FileServer.Found> find(Map<String, Object> load) {
        String saltenv = saltenv(load);
        if (saltenv == null || !(load.get("path") instanceof String path)) {
            return Optional.empty();
        }
        try {
            return server.find(saltenv, path);
        } catch (UnsafePathException e) {
            log.warn("file request from {} refused: {}", Printable.quoted(load.get("id")), e.getMessage());
            return Optional.empty();
        }
    }

    /** Salt str()s a saltenv that is not a string; none at all is no env. */
    private static String saltenv(Map<String, Object> load) {
        Object env = load.get("saltenv");
        return env == null ? null : env instanceof String s ? s : String.valueOf(env);
    }

    private static Map<String, Object> missing() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("data", "");
        out.put("dest", "");
        return out;
    }
}
