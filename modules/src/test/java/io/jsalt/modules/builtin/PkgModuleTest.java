package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads this machine's real dpkg database and apt cache; never installs or removes anything. */
class PkgModuleTest {

    private final ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("p").build())
            .addModule(new PkgModule()).build();

    @TempDir
    Path dir;

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    private static String run(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(String.join(" ", argv)).isZero();
        return output;
    }

    @Test
    void listPkgsMatchesTheDpkgDatabase() throws Exception {
        Map<String, String> expected = new HashMap<>();
        for (String line : run("dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Version}\n").split("\n")) {
            String[] columns = line.split("\t");
            if (columns.length == 3 && columns[0].length() > 1 && columns[0].charAt(1) == 'i') {
                expected.put(columns[1], columns[2]);
            }
        }

        CallResult result = call("pkg.list_pkgs");

        assertThat(result.success()).isTrue();
        Map<String, Object> byBaseName = new HashMap<>();
        ((Map<?, ?>) result.ret()).forEach((name, version) -> byBaseName.put(name.toString().split(":")[0], version));
        assertThat(byBaseName).isEqualTo(expected).containsKey("dpkg");
    }

    @Test
    void versionGivesOneStringForOneNameAndADictForSeveral() throws Exception {
        String dpkg = run("dpkg-query", "-W", "-f", "${Version}", "dpkg");

        assertThat(call("pkg.version", "dpkg")).isEqualTo(CallResult.ok(dpkg));
        assertThat(call("pkg.version", "dpkg", "no-such-package-jsalt").ret())
                .isEqualTo(Map.of("dpkg", dpkg, "no-such-package-jsalt", ""));
    }

    @Test
    void latestVersionFollowsAptCachePolicy() throws Exception {
        String policy = run("apt-cache", "policy", "dpkg");
        String installed = field(policy, "Installed");
        String candidate = field(policy, "Candidate");
        String expected = candidate.equals("(none)") || candidate.equals(installed) ? "" : candidate;

        assertThat(call("pkg.latest_version", "dpkg", Map.of("__kwarg__", true, "refresh", false)))
                .isEqualTo(CallResult.ok(expected));
        assertThat(call("pkg.latest_version", "no-such-package-jsalt", Map.of("__kwarg__", true, "refresh", false)))
                .isEqualTo(CallResult.ok(""));
    }

    private static String field(String policy, String name) {
        Matcher matcher = Pattern.compile("^\\s*" + name + ": (\\S+)", Pattern.MULTILINE).matcher(policy);
        assertThat(matcher.find()).as(name).isTrue();
        return matcher.group(1);
    }

    @Test
    void otherFamiliesGetAnErrorNamingTheirFamily() throws IOException {
        Path osRelease = Files.writeString(dir.resolve("os-release"),
                "NAME=\"Rocky Linux\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.3\"\n"
                        + "PRETTY_NAME=\"Rocky Linux 9.3 (Blue Onyx)\"\n");
        ModuleRegistry rocky = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("r").build())
                .addModule(new PkgModule(osRelease)).build();

        for (String function : List.of("list_pkgs", "version", "latest_version", "install", "remove", "purge",
                "refresh_db", "list_upgrades")) {
            CallResult result = rocky.call("pkg." + function, function.contains("version") ? List.of("bash")
                    : function.equals("install") || function.equals("remove") || function.equals("purge")
                    ? List.of("bash") : List.of());
            assertThat(result.retcode()).as(function).isEqualTo(1);
            assertThat(result.ret()).as(function).isEqualTo("ERROR: pkg." + function + " supports only the Debian "
                    + "family (apt/dpkg); this host is Rocky Linux 9.3 (Blue Onyx), os_family RedHat");
        }
    }

    @Test
    void aHostWithoutOsReleaseIsRefusedToo() {
        PkgModule module = new PkgModule(dir.resolve("missing"));

        assertThatThrownBy(() -> module.list_pkgs(false, Map.of())).isInstanceOf(CommandExecutionException.class)
                .hasMessageContaining("needs the Debian family");
    }

    @Test
    void ubuntuDerivativesCountAsDebian() throws IOException {
        Path osRelease = Files.writeString(dir.resolve("os-release"), "ID=linuxmint\nID_LIKE=\"ubuntu debian\"\n");

        assertThat(new PkgModule(osRelease).version(List.of("dpkg"), Map.of())).isInstanceOf(String.class);
    }

    @Test
    void installCommandsCarrySaltsOptionsAndVersions() {
        assertThat(PkgModule.installCommand("nginx", null, "1.22.1-9", null, false, false)).containsExactly("apt-get",
                "-q", "-y", "-o", "DPkg::Options::=--force-confold", "-o", "DPkg::Options::=--force-confdef", "install",
                "nginx=1.22.1-9");
        assertThat(PkgModule.installCommand(null, List.of("curl", Map.of("vim", "2:9.0")), null, "bookworm-backports",
                true, true)).endsWith("-t", "bookworm-backports", "--reinstall", "--download-only", "install", "curl",
                "vim=2:9.0");
        assertThat(PkgModule.removeCommand(List.of("curl", "vim"), false)).containsExactly("apt-get", "-q", "-y",
                "remove", "curl", "vim");
        assertThat(PkgModule.removeCommand(List.of("curl"), true)).containsExactly("apt-get", "-q", "-y", "purge", "curl");
    }

    @Test
    void namesVersionsAndReleasesThatCouldBeOptionsAreRefused() {
        assertThatThrownBy(() -> PkgModule.installCommand("-oAPT::Get::x=1", null, null, null, false, false))
                .hasMessage("Invalid package name '-oAPT::Get::x=1'");
        assertThatThrownBy(() -> PkgModule.installCommand("vim", null, "--force", null, false, false))
                .hasMessageContaining("Invalid version");
        assertThatThrownBy(() -> PkgModule.installCommand("vim", null, null, "-c/etc/evil", false, false))
                .hasMessageContaining("Invalid fromrepo");
        assertThatThrownBy(() -> PkgModule.installCommand(null, null, null, null, false, false))
                .hasMessageContaining("pass name or pkgs");
        assertThat(call("pkg.install", "foo bar").ret()).isEqualTo("ERROR: Invalid package name 'foo bar'");
    }

    @Test
    void removingAPackageThatIsNotInstalledChangesNothing() {
        assertThat(call("pkg.remove", "no-such-package-jsalt")).isEqualTo(CallResult.ok(Map.of()));
    }
}
