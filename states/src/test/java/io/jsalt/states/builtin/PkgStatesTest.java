package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static io.jsalt.states.TestCalls.list;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.states.builtin.pkg.DebianPackages;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pkg states with real dpkg and apt on a root folder of their own (its dpkg database, its apt sources: a
 * local file repository of tiny packages built here with dpkg-deb), never the host's package database, no network.
 */
class PkgStatesTest {
    @TempDir
    Path files;
    @TempDir
    Path dir;
    private Path root;
    private Path repo;
    private DebianPackages dpkg;
    private PkgStates pkg;

    @BeforeEach
    void aRootAndARepository() throws Exception {
        root = dir.resolve("root");
        repo = Files.createDirectories(dir.resolve("repo"));
        for (String d : List.of("var/lib/dpkg/info", "var/lib/dpkg/updates", "etc/apt/sources.list.d",
                "etc/apt/preferences.d", "etc/apt/apt.conf.d", "etc/apt/trusted.gpg.d", "var/lib/apt/lists/partial",
                "var/cache/apt/archives/partial", "var/log/apt")) {
            Files.createDirectories(root.resolve(d));
        }
        Files.writeString(root.resolve("var/lib/dpkg/status"), "");
        Files.writeString(root.resolve("var/lib/dpkg/available"), "");
        Files.writeString(root.resolve("etc/apt/sources.list"), "deb [trusted=yes] file:" + repo + " ./\n");
        build("jsalt-hello", "1.0-1", repo);
        build("jsalt-hello", "2.0-1", repo);
        build("jsalt-extra", "1.0-1", repo);
        index();
        dpkg = DebianPackages.under(root);
        pkg = new PkgStates(dpkg);
        dpkg.refresh();
    }

    private Path build(String name, String version, Path into) throws Exception {
        Path src = dir.resolve("src-" + name + "-" + version);
        Files.createDirectories(src.resolve("DEBIAN"));
        Files.createDirectories(src.resolve("usr/share/" + name));
        Files.writeString(src.resolve("DEBIAN/control"), "Package: " + name + "\nVersion: " + version
                + "\nArchitecture: all\nMaintainer: jsalt <t@example.org>\nDescription: a test package\n");
        Files.writeString(src.resolve("usr/share/" + name + "/version"), version + "\n");
        Files.writeString(src.resolve("DEBIAN/conffiles"), "/etc/" + name + ".conf\n");
        Files.createDirectories(src.resolve("etc"));
        Files.writeString(src.resolve("etc/" + name + ".conf"), "setting\n");
        Path deb = into.resolve(name + "_" + version + "_all.deb");
        run(dir, "dpkg-deb", "--build", "--root-owner-group", src.toString(), deb.toString());
        return deb;
    }

    private void index() throws Exception {
        Process p = new ProcessBuilder("dpkg-scanpackages", "-m", ".", "/dev/null").directory(repo.toFile())
                .redirectOutput(repo.resolve("Packages").toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).isTrue();
    }

    private static void run(Path cwd, String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(String.join(" ", argv)).isTrue();
    }

    private Path installedFile(String name) {
        return root.resolve("usr/share/" + name + "/version");
    }

    @Test
    void installedInstallsTheCandidateThenSaysItIsInstalled() throws Exception {
        StateResult test = pkg.installed(call(files, true, "jsalt-hello"));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("The following packages would be installed/updated: jsalt-hello");
        assertThat(test.changes()).isEqualTo(Map.of("jsalt-hello", Map.of("new", "installed", "old", "")));
        assertThat(dpkg.installed()).isEmpty();

        StateResult r = pkg.installed(call(files, false, "jsalt-hello"));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("The following packages were installed/updated: jsalt-hello");
        assertThat(r.changes()).isEqualTo(Map.of("jsalt-hello", Map.of("old", "", "new", "2.0-1")));
        assertThat(Files.readString(installedFile("jsalt-hello"))).isEqualTo("2.0-1\n");

        // Salt 3006 treats a lone name as a list of one
        assertThat(pkg.installed(call(files, false, "jsalt-hello")).comment())
                .isEqualTo("All specified packages are already installed");
        assertThat(pkg.installed(call(files, false, "x", "pkgs", list())).comment())
                .isEqualTo("No packages to install provided");
    }

    @Test
    void installedWithAVersionOrAListInstallsExactlyThose() {
        StateResult r = pkg.installed(call(files, false, "x", "pkgs", list(Map.of("jsalt-hello", "1.0-1"), "jsalt-extra")));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("2 targeted packages were installed/updated.");
        assertThat(dpkg.installed()).isEqualTo(Map.of("jsalt-hello", "1.0-1", "jsalt-extra", "1.0-1"));
        assertThat(pkg.installed(call(files, false, "jsalt-hello", "version", "1.0-1")).comment())
                .isEqualTo("All specified packages are already installed and are at the desired version");
        assertThat(pkg.installed(call(files, false, "x", "pkgs", list(Map.of("jsalt-hello", "1.0-1")))).comment())
                .isEqualTo("All specified packages are already installed and are at the desired version");

        StateResult upgrade = pkg.installed(call(files, false, "jsalt-hello", "version", "2.0-1"));
        assertThat(upgrade.changes()).isEqualTo(Map.of("jsalt-hello", Map.of("old", "1.0-1", "new", "2.0-1")));
    }

    @Test
    void installedFailsClearlyForAnUnknownPackageOrAVersionComparison() {
        StateResult r = pkg.installed(call(files, false, "jsalt-nosuch"));
        assertThat(r.result()).isFalse();
        assertThat(r.comment()).startsWith("An error was encountered while installing package(s): apt-get failed: ")
                .contains("jsalt-nosuch");
        assertThat(dpkg.installed()).isEmpty();
    }

    @Test
    void installedFromSourcesInstallsPackageFiles() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Path deb = build("jsalt-local", "0.5-1", elsewhere);
        Files.createDirectories(files.resolve("debs"));
        Files.copy(deb, files.resolve("debs/local.deb"));
        StateResult test = pkg.installed(call(files, true, "x", "sources", list(Map.of("jsalt-local", "salt://debs/local.deb"))));
        assertThat(test.result()).isNull();
        assertThat(dpkg.installed()).isEmpty();

        StateResult r = pkg.installed(call(files, false, "x", "sources", list(Map.of("jsalt-local", "salt://debs/local.deb"))));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.changes()).isEqualTo(Map.of("jsalt-local", Map.of("old", "", "new", "0.5-1")));
        assertThat(r.comment()).isEqualTo("The following packages were installed/updated: jsalt-local");
        assertThat(pkg.installed(call(files, false, "x", "sources", list(Map.of("jsalt-local", "file://" + deb)))).comment())
                .isEqualTo("All specified packages are already installed");

        StateResult wrong = pkg.installed(call(files, false, "x", "sources", list(Map.of("jsalt-other", deb.toString()))));
        assertThat(wrong.result()).isFalse();
        assertThat(wrong.comment()).isEqualTo("Package file " + deb + " holds package jsalt-local, not jsalt-other");
    }

    @Test
    void latestUpgradesToTheCandidate() {
        pkg.installed(call(files, false, "jsalt-hello", "version", "1.0-1"));
        StateResult test = pkg.latest(call(files, true, "jsalt-hello"));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("The following packages would be installed/upgraded: jsalt-hello");
        assertThat(dpkg.installed()).containsEntry("jsalt-hello", "1.0-1");

        StateResult r = pkg.latest(call(files, false, "jsalt-hello"));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("The following packages were successfully installed/upgraded: jsalt-hello");
        assertThat(r.changes()).isEqualTo(Map.of("jsalt-hello", Map.of("old", "1.0-1", "new", "2.0-1")));
        assertThat(pkg.latest(call(files, false, "jsalt-hello")).comment())
                .isEqualTo("Package jsalt-hello is already up-to-date");
        assertThat(pkg.latest(call(files, false, "jsalt-nosuch")).comment())
                .isEqualTo("No information found for 'jsalt-nosuch'.");
    }

    @Test
    void removedKeepsTheConfigurationAndPurgedRemovesIt() throws Exception {
        pkg.installed(call(files, false, "x", "pkgs", list("jsalt-hello", "jsalt-extra")));
        assertThat(root.resolve("etc/jsalt-hello.conf")).exists();

        StateResult test = pkg.removed(call(files, true, "jsalt-hello"));
        assertThat(test.result()).isNull();
        assertThat(test.comment()).isEqualTo("The following packages will be removed: jsalt-hello.");
        assertThat(dpkg.installed()).containsKey("jsalt-hello");

        StateResult r = pkg.removed(call(files, false, "jsalt-hello"));
        assertThat(r.result()).as(r.comment()).isTrue();
        assertThat(r.comment()).isEqualTo("All targeted packages were removed.");
        assertThat(r.changes()).isEqualTo(Map.of("jsalt-hello", Map.of("old", "2.0-1", "new", "")));
        assertThat(installedFile("jsalt-hello")).doesNotExist();
        assertThat(root.resolve("etc/jsalt-hello.conf")).exists();
        assertThat(pkg.removed(call(files, false, "jsalt-hello")).comment())
                .isEqualTo("All specified packages are already absent");
        assertThat(pkg.removed(call(files, false, "jsalt-extra", "version", "0.9-1")).comment())
                .isEqualTo("All specified packages (matching specified versions) are already absent");
        assertThat(dpkg.installed()).containsKey("jsalt-extra");

        // removed but not purged: purged still has its configuration to remove
        StateResult purged = pkg.purged(call(files, false, "x", "pkgs", list("jsalt-hello", "jsalt-extra")));
        assertThat(purged.result()).as(purged.comment()).isTrue();
        assertThat(root.resolve("etc/jsalt-hello.conf")).doesNotExist();
        assertThat(root.resolve("etc/jsalt-extra.conf")).doesNotExist();
        assertThat(dpkg.configRemnants()).isEmpty();
        assertThat(pkg.purged(call(files, false, "jsalt-hello")).comment())
                .isEqualTo("None of the targeted packages are installed or partially installed");
    }
}
