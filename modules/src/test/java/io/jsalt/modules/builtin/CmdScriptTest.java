package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.MasterFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CmdScriptTest {

    @TempDir
    Path dir;

    private final List<String> fetched = new ArrayList<>();

    /** A file server holding salt://scripts/* under dir/master. */
    private final MasterFiles files = new MasterFiles() {
        @Override
        public Path cache(String saltUrl, String saltenv) {
            fetched.add(saltUrl + " " + saltenv);
            Path file = dir.resolve("master").resolve(saltUrl.substring("salt://".length()));
            if (!Files.isRegularFile(file)) {
                throw new CommandExecutionException("File not found on the master: " + saltUrl);
            }
            return file;
        }

        @Override
        public List<String> list(String prefix, String saltenv) {
            return List.of();
        }
    };

    private final ModuleContext context = new ModuleContext() {
        @Override
        public String minionId() {
            return "script-minion";
        }

        @Override
        public Map<String, Object> grains() {
            return Map.of();
        }

        @Override
        public Map<String, Object> opts() {
            return Map.of();
        }

        @Override
        public Path cachedir() {
            return dir;
        }

        @Override
        public MasterFiles files() {
            return files;
        }
    };

    private final ModuleRegistry registry = ModuleRegistry.builtIn(context);

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    private Path masterScript(String name, String text) throws IOException {
        Path file = dir.resolve("master").resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    @Test
    void scriptFromTheMasterRunsWithArgsAndReturnsRunAllsShape() throws IOException {
        masterScript("scripts/greet.sh", "#!/bin/sh\necho \"hello $1|$2\"\necho warn >&2\nexit 4\n");

        CallResult result = call("cmd.script", "salt://scripts/greet.sh", "world 'two words'");

        assertThat(fetched).containsExactly("salt://scripts/greet.sh base");
        assertThat(result.retcode()).isEqualTo(4);
        Map<String, Object> ret = ModuleCalls.asMap(result.ret());
        assertThat(ret).containsOnlyKeys("pid", "retcode", "stdout", "stderr");
        assertThat(ret).containsEntry("retcode", 4).containsEntry("stdout", "hello world|two words")
                .containsEntry("stderr", "warn");
        assertThat((Long) ret.get("pid")).isPositive();
    }

    @Test
    void argsMayBeAListAndSaltenvIsPassedOn() throws IOException {
        masterScript("scripts/args.sh", "#!/bin/sh\nprintf '%s|' \"$@\"\n");

        CallResult result = call("cmd.script", "salt://scripts/args.sh",
                ModuleCalls.kwargs("args", List.of("a b", "$HOME", "c"), "saltenv", "dev"));

        assertThat(ModuleCalls.asMap(result.ret())).containsEntry("stdout", "a b|$HOME|c|");
        assertThat(fetched).containsExactly("salt://scripts/args.sh dev");
    }

    @Test
    void scriptRunsFromAPrivateCopyThatIsRemovedAfterwards() throws IOException {
        masterScript("scripts/where.sh", "#!/bin/sh\necho \"$0\"\nstat -c %a \"$0\"\n");

        String[] lines = ((String) ModuleCalls.asMap(call("cmd.script", "salt://scripts/where.sh").ret())
                .get("stdout")).split("\n");

        assertThat(lines[0]).doesNotStartWith(dir.toString()).endsWith(".sh");
        assertThat(lines[1]).isEqualTo("500");
        assertThat(Path.of(lines[0])).doesNotExist();
    }

    @Test
    void thePrivateCopyLivesInADirectoryOnlyItsOwnerCanEnterWhichIsRemovedAfterwards() throws IOException {
        masterScript("scripts/dir.sh", "#!/bin/sh\nd=$(dirname \"$0\")\necho \"$d\"\nstat -c '%a %U' \"$d\" \"$0\"\n");

        String[] lines = ((String) ModuleCalls.asMap(call("cmd.script", "salt://scripts/dir.sh").ret())
                .get("stdout")).split("\n");
        String[] asNobody = ((String) ModuleCalls.asMap(call("cmd.script", "salt://scripts/dir.sh",
                ModuleCalls.kwargs("runas", "nobody")).ret()).get("stdout")).split("\n");

        assertThat(lines).hasSize(3);
        assertThat(lines[1]).isEqualTo("700 root");
        assertThat(lines[2]).isEqualTo("500 root");
        assertThat(Path.of(lines[0])).doesNotExist();
        assertThat(asNobody).containsExactly(asNobody[0], "700 nobody", "500 nobody");
        assertThat(Path.of(asNobody[0])).doesNotExist();
    }

    @Test
    void scriptHonoursCwdEnvStdinAndRunas() throws IOException {
        masterScript("scripts/env.sh", "#!/bin/sh\npwd\necho \"$GREETING\"\nread line; echo \"$line\"\nid -un\n");

        CallResult result = call("cmd.script", "salt://scripts/env.sh", ModuleCalls.kwargs("cwd", "/tmp",
                "env", Map.of("GREETING", "hi"), "stdin", "from stdin\n", "runas", "nobody"));

        assertThat(ModuleCalls.asMap(result.ret()).get("stdout")).isEqualTo("/tmp\nhi\nfrom stdin\nnobody");
    }

    @Test
    void aLocalAbsolutePathIsRunWithoutTheMaster() throws IOException {
        Path local = Files.writeString(dir.resolve("local.sh"), "#!/bin/sh\necho local\n");

        assertThat(ModuleCalls.asMap(call("cmd.script", local.toString()).ret())).containsEntry("stdout", "local");
        assertThat(fetched).isEmpty();
    }

    @Test
    void aScriptTheMasterDoesNotHaveIsACacheError() {
        CallResult result = call("cmd.script", "salt://scripts/missing.sh");

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(ModuleCalls.asMap(result.ret())).containsEntry("pid", 0L).containsEntry("retcode", 1)
                .containsEntry("stdout", "").containsEntry("cache_error", true)
                .containsEntry("stderr", "File not found on the master: salt://scripts/missing.sh");
    }

    @Test
    void withoutAMasterASaltUrlIsACacheErrorNamingTheLocalRun() {
        ModuleRegistry local = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("l").build());

        CallResult result = local.call("cmd.script", List.of("salt://scripts/a.sh"));

        assertThat(ModuleCalls.asMap(result.ret())).containsEntry("cache_error", true)
                .containsEntry("stderr", "no master (--local)");
    }

    @Test
    void aTimedOutScriptIsKilled() throws IOException {
        masterScript("scripts/slow.sh", "#!/bin/sh\necho started\nsleep 60\n");

        CallResult result = call("cmd.script", "salt://scripts/slow.sh", ModuleCalls.kwargs("timeout", 0.5));

        assertThat(result.retcode()).isEqualTo(1);
        assertThat(ModuleCalls.asMap(result.ret())).containsEntry("stdout", "started")
                .containsEntry("stderr", "Timed out after 0.5 s");
    }
}
