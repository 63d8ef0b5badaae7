package io.jsalt.states.builtin.file;

import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code source} of {@code file.managed}, as Salt's {@code file.source_list} and {@code file.get_managed} pick
 * and read it: a {@code salt://} URL through the master's file server in the state's saltenv, a file on the minion
 * ({@code /path} or {@code file:///path}), or a list of those (the first that exists; an entry may be
 * {@code {url: source_hash}}).
 *
 * @param url      the source chosen
 * @param bytes    its content
 * @param declared the {@code source_hash} a minion-local source is checked against; null for {@code salt://}
 *                 sources, whose hash is the master's (Salt 3006 ignores {@code source_hash} for them)
 */
public record ManagedSource(String url, byte[] bytes, SourceHash declared) {

    /**
     * @throws StatesException with Salt's comment when no source exists or the hash is malformed
     */
    public static ManagedSource resolve(StateCall call, Object source, String saltenv) {
        String sourceHash = call.string("source_hash");
        String url;
        if (source instanceof List<?> list) {
            Choice choice = choose(call, list, sourceHash, saltenv);
            url = choice.url();
            sourceHash = choice.hash();
        } else {
            url = String.valueOf(source);
        }
        String scheme = SourceHash.scheme(url);
        if (scheme.equals("salt")) {
            byte[] bytes = call.files().read(StateFiles.pathOf(url), saltenv)
                    .orElseThrow(() -> new StatesException("Source file " + url + " not found in saltenv '" + saltenv + "'"));
            return new ManagedSource(url, bytes, null);
        }
        if (!scheme.isEmpty() && !scheme.equals("file")) {
            throw new StatesException("Source " + url + " is not supported: jsalt reads salt://, file:// and local paths");
        }
        Path local = SourceHash.localPath(url);
        if (!local.isAbsolute() || !Files.exists(local)) {
            throw new StatesException("Local file source " + local + " does not exist");
        }
        // skip_verify: Salt takes the file as it is, whatever source_hash says
        SourceHash declared = sourceHash == null || sourceHash.isEmpty() || call.flag("skip_verify", false) ? null
                : SourceHash.parse(sourceHash, call.name(), url, call.string("source_hash_name"),
                        hashFile -> readHashFile(call, hashFile, saltenv));
        try {
            return new ManagedSource(url, Files.readAllBytes(local), declared);
        } catch (IOException e) {
            throw new StatesException("Unable to manage file: cannot read " + local + ": " + e.getMessage(), e);
        }
    }

    private record Choice(String url, String hash) {
    }

    /** Salt's {@code source_list}: the first entry that exists, each with its own hash or the state's. */
    private static Choice choose(StateCall call, List<?> sources, String sourceHash, String saltenv) {
        for (Object entry : sources) {
            String url;
            String hash = sourceHash;
            if (entry instanceof Map<?, ?> map) {
                if (map.size() != 1) {
                    continue;
                }
                Map.Entry<?, ?> only = map.entrySet().iterator().next();
                url = String.valueOf(only.getKey());
                if (only.getValue() != null && !String.valueOf(only.getValue()).isEmpty()) {
                    hash = String.valueOf(only.getValue());
                }
            } else {
                url = String.valueOf(entry);
            }
            if (exists(call, url, saltenv)) {
                return new Choice(url, hash);
            }
        }
        throw new StatesException("Unable to manage file: none of the specified sources were found");
    }

    private static boolean exists(StateCall call, String url, String saltenv) {
        String scheme = SourceHash.scheme(url);
        if (scheme.equals("salt")) {
            return call.files().read(StateFiles.pathOf(url), saltenv).isPresent();
        }
        if (scheme.equals("file") || (scheme.isEmpty() && url.startsWith("/"))) {
            return Files.exists(SourceHash.localPath(url));
        }
        return false;
    }

    private static Optional<byte[]> readHashFile(StateCall call, String url, String saltenv) {
        if (SourceHash.scheme(url).equals("salt")) {
            return call.files().read(StateFiles.pathOf(url), saltenv);
        }
        Path local = SourceHash.localPath(url);
        try {
            return Files.isRegularFile(local) ? Optional.of(Files.readAllBytes(local)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether the source is checked against a declared hash (Salt's {@code check_web_source_hash}). */
    public boolean verified() {
        return declared != null;
    }
}
