package io.jsalt.modules;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.GrainsFile;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.MasterFiles;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobControlTest {

    /** Reports the job it runs in. */
    @SaltModule(name = "jobby")
    public static final class JobModule implements ExecutionModule {
        @SaltFunction
        public String jid(JobControl job) {
            job.childStarted(ProcessHandle.current());
            return job.jid();
        }
    }

    private final ModuleContext context = SimpleModuleContext.builder().minionId("m").build();
    private final ModuleRegistry registry = ModuleRegistry.builder(context).addModule(new JobModule()).build();

    @Test
    void aFunctionDeclaringJobControlGetsTheCallersJob() {
        List<Long> children = new ArrayList<>();
        JobControl job = new JobControl() {
            @Override
            public String jid() {
                return "20261122091500123456";
            }

            @Override
            public void childStarted(ProcessHandle child) {
                children.add(child.pid());
            }
        };

        assertThat(registry.call("jobby.jid", List.of(), job)).isEqualTo(CallResult.ok("20261122091500123456"));
        assertThat(children).containsExactly(ProcessHandle.current().pid());
    }

    @Test
    void aCallWithoutAJobGetsTheEmptyJob() {
        assertThat(registry.call("jobby.jid", List.of())).isEqualTo(CallResult.ok(""));
    }

    @Test
    void jobControlIsInjectedNotAnArgumentInTheSignature() {
        assertThat(registry.signature("jobby.jid")).contains("jobby.jid()");
        assertThat(registry.argspec("jobby.jid")).contains(nullSpec());
    }

    @Test
    void aPlainContextHasNoMasterNoGrainsFileAndCannotReload() {
        assertThat(context.files()).isSameAs(MasterFiles.NONE);
        assertThat(context.grainsFile()).isEmpty();
        try {
            context.reloadModules();
            throw new AssertionError("reloadModules should fail");
        } catch (CommandExecutionException e) {
            assertThat(e).hasMessage("module reload is not available here");
        }
    }

    @Test
    void noMasterFilesFailWithTheLocalMessage() {
        for (Runnable call : List.<Runnable>of(() -> MasterFiles.NONE.cache("salt://a.sh", "base"),
                () -> MasterFiles.NONE.list("_modules", "base"))) {
            try {
                call.run();
                throw new AssertionError("MasterFiles.NONE should fail");
            } catch (CommandExecutionException e) {
                assertThat(e).hasMessage("no master (--local)");
            }
        }
        JobControl.NONE.childStarted(ProcessHandle.current());
        assertThat(JobControl.NONE.jid()).isEmpty();
    }

    @Test
    void aContextMayOfferAGrainsFileAndMasterFiles() {
        GrainsFile grains = new GrainsFile() {
            @Override
            public Map<String, Object> read() {
                return Map.of("role", "web");
            }

            @Override
            public void write(Map<String, Object> values) {
                throw new UnsupportedOperationException();
            }
        };
        ModuleContext custom = new ModuleContext() {
            @Override
            public String minionId() {
                return "c";
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
                return Path.of("/tmp");
            }

            @Override
            public java.util.Optional<GrainsFile> grainsFile() {
                return java.util.Optional.of(grains);
            }
        };

        assertThat(custom.grainsFile()).containsSame(grains);
    }

    private static Map<String, Object> nullSpec() {
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        spec.put("args", null);
        spec.put("defaults", null);
        spec.put("varargs", null);
        spec.put("kwargs", null);
        return spec;
    }
}
