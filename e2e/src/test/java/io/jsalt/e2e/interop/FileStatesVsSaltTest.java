package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.JobControl;
import io.jsalt.states.builtin.BuiltinStates;
import io.jsalt.states.compile.ExecutionPlan;
import io.jsalt.states.compile.SlsCompiler;
import io.jsalt.states.exec.RegistryCaller;
import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import io.jsalt.states.run.StateRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file state functions against Salt 3006.8's, run live: {@code interop/file-states/cases.sls} (file.managed,
 * directory, symlink, line, replace, append, prepend, recurse, exists, missing, touch, copy, rename, comment, uncomment,
 * blockreplace: about 140 states with owners, source hashes, pillar and grains contents, backups, clean, and Salt's
 * quirks) is applied by a real {@code salt-call --local} three times (test=True, a first run, a second run) from the
 * same seeded tree, then by jsalt's state runner from the same tree at the same paths; every state's result, comment
 * and changes, and the tree after each run (content, type, owner, group, mode, link target, and the minion's
 * file_backup copies), must be the same.
 */
@Tag("interop")
class FileStatesVsSaltTest {
    private static final String[] RUNS = {"test=True", "first run", "second run"};

    @Test
    @Timeout(240)
    void everyFileStateReturnsWhatSaltReturnsAndLeavesTheSameTree(@TempDir Path tmp) throws Exception {
        Path resources = Path.of(getClass().getResource("/interop/file-states").toURI());
        Path srv = tmp.resolve("srv");
        Path target = tmp.resolve("t");
        Path cachedir = tmp.resolve("root/var/cache/salt/minion");
        Path local = tmp.resolve("local.txt");
        copyTree(resources.resolve("srv"), srv);
        Files.writeString(local, "local src\n");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(local)));
        Files.writeString(srv.resolve("web/hashes"), "b".repeat(64) + "  other.txt\n" + sha + "  local.txt\n");
        Files.writeString(srv.resolve("cases.sls"), Files.readString(resources.resolve("cases.sls"))
                .replace("@T@", target.toString()).replace("@LOCAL@", local.toString())
                .replace("@LOCAL_SHA256@", sha).replace("@SRV@", srv.toString()));
        Path pillar = tmp.resolve("pillar");
        copyTree(resources.resolve("pillar"), pillar);
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        Files.writeString(conf.resolve("minion"), String.join("\n", "root_dir: " + tmp.resolve("root"),
                "file_client: local", "file_roots:", "  base:", "    - " + srv, "pillar_roots:", "  base:", "    - " + pillar,
                "id: local", "enable_fqdns_grains: False", ""));
        Path seed = resources.resolve("seed.sh");

        Map<String, Object> grains;
        List<Map<String, Object>> salt = new ArrayList<>();
        List<Map<String, String>> saltTrees = new ArrayList<>();
        try (Processes processes = new Processes()) {
            Processes.Result os = processes.run(RealSalt.tool("salt-call", List.of("-c", conf.toString(), "--local",
                    "--out", "json", "grains.get", "os")), 120);
            grains = Map.of("os", Json.object(os.stdout()).get("local"));
            seed(processes, seed, target, cachedir);
            for (int i = 0; i < RUNS.length; i++) {
                List<String> args = new ArrayList<>(List.of("-c", conf.toString(), "--local", "--out", "json",
                        "state.apply", "cases"));
                if (i == 0) {
                    args.add("test=True");
                }
                Processes.Result run = processes.run(RealSalt.tool("salt-call", args), 120);
                assertThat(run.stdout()).as(run.toString()).contains("file_|-m_contents_new_|-");
                salt.add(states(Json.object(run.stdout()).get("local")));
                saltTrees.add(snapshot(target, cachedir));
            }
            seed(processes, seed, target, cachedir);
        }
        // the pillar salt-call compiled from pillar/ (plain YAML, one file), as jsalt's master would send it
        Map<String, Object> pillarData = Json.object(Files.readString(pillar.resolve("data.sls")));
        List<Map<String, Object>> jsalt = new ArrayList<>();
        List<Map<String, String>> jsaltTrees = new ArrayList<>();
        for (int i = 0; i < RUNS.length; i++) {
            jsalt.add(jsaltApply(srv, cachedir, grains, pillarData, i == 0));
            jsaltTrees.add(snapshot(target, cachedir));
        }

        assertThat(salt.get(1)).hasSizeGreaterThan(130);
        for (int i = 0; i < RUNS.length; i++) {
            assertThat(jsalt.get(i).keySet()).as(RUNS[i]).isEqualTo(salt.get(i).keySet());
            for (String tag : salt.get(i).keySet()) {
                Map<?, ?> s = (Map<?, ?>) salt.get(i).get(tag);
                Map<?, ?> j = (Map<?, ?>) jsalt.get(i).get(tag);
                String what = RUNS[i] + ": " + tag;
                assertThat(j.get("result")).as(what + " result").isEqualTo(s.get("result"));
                assertThat(normal(j.get("changes"))).as(what + " changes").isEqualTo(normal(s.get("changes")));
                assertThat(comment(tag, j.get("comment"))).as(what + " comment").isEqualTo(comment(tag, s.get("comment")));
            }
            assertThat(jsaltTrees.get(i)).as(RUNS[i] + ": the tree").isEqualTo(saltTrees.get(i));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> states(Object ret) {
        assertThat(ret).as("salt-call's return").isInstanceOf(Map.class);
        return (Map<String, Object>) ret;
    }

    private static Map<String, Object> jsaltApply(Path srv, Path cachedir, Map<String, Object> grains,
            Map<String, Object> pillar, boolean test) {
        FolderFiles files = FolderFiles.base(srv);
        SlsRenderer renderer = new SlsRenderer(files);
        ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("local").build());
        FunctionCaller salt = new RegistryCaller(registry, JobControl.NONE);
        RenderContext context = new RenderContext(grains, pillar,
                Map.of("id", "local", "cachedir", cachedir.toString()), "base", "cases", "cases.sls", salt);
        ExecutionPlan plan = new SlsCompiler(files, renderer).compile(List.of("cases"), context);
        return new StateRunner(BuiltinStates.all(), salt, files, renderer.jinja()).run(plan, test, context);
    }

    /** Numbers compared by value (YAML ints on one side, longs on the other); Salt's removed lists are set-ordered. */
    private static Object normal(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), "removed".equals(k) && v instanceof List<?> l
                    ? new TreeSet<>(l.stream().map(String::valueOf).toList()) : normal(v)));
            return out;
        }
        if (value instanceof Number n) {
            return n.longValue();
        }
        return value;
    }

    /** file.recurse joins its files' comments in Salt's set order: compared as a set of per-path blocks. */
    private static Object comment(String tag, Object comment) {
        if (!tag.endsWith("_|-recurse") || !(comment instanceof String text) || !text.startsWith("#### ")) {
            return comment;
        }
        Set<String> blocks = new TreeSet<>();
        for (String block : ("\n" + text).split("\n(?=\n#### )|^\n")) {
            if (!block.isBlank()) {
                blocks.add(block.strip());
            }
        }
        return blocks;
    }

    private static void seed(Processes processes, Path script, Path target, Path cachedir) throws Exception {
        Processes.Result seeded = processes.run(new ProcessBuilder("/bin/sh", script.toString(), target.toString(),
                cachedir.resolve("file_backup").toString()), 30);
        assertThat(seeded.exitCode()).as(seeded.toString()).isZero();
    }

    /** Every path under the tree and the backups: its type and content or link target, owner, group and mode. */
    private static Map<String, String> snapshot(Path target, Path cachedir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (Path root : List.of(target, cachedir.resolve("file_backup"))) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.toList()) {
                    PosixFileAttributes at = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
                    String what = at.isSymbolicLink() ? "link -> " + Files.readSymbolicLink(p)
                            : at.isDirectory() ? "dir" : "file " + Files.readString(p);
                    // backups are named by the time they were made
                    String key = p.toString()
                            .replaceAll("_[A-Z][a-z]{2}_[A-Z][a-z]{2}_\\d\\d_\\d\\d:\\d\\d:\\d\\d_\\d{6}_\\d{4}$", "_<stamp>")
                            .replaceAll("\\.\\d{4}-\\d\\d-\\d\\d-\\d\\d-\\d\\d-\\d\\d$", ".<stamp>");
                    out.put(key, what + " " + at.owner().getName() + ":" + at.group().getName() + " "
                            + Integer.toOctalString(mode));
                }
            }
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }
}
