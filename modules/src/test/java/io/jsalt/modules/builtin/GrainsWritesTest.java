package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.GrainsFile;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GrainsWritesTest {

    /** The minion's view: core grains with the grains file on top, as the minion builds it. */
    private static final class FileBackedContext implements ModuleContext, GrainsFile {
        private final Map<String, Object> core = new LinkedHashMap<>();
        private Map<String, Object> file = new LinkedHashMap<>();
        private int writes;
        /** The refresh_pillar of every refresh a write asked for, in order. */
        private final List<Boolean> refreshes = new java.util.ArrayList<>();

        @Override
        public String minionId() {
            return "grains-minion";
        }

        @Override
        public Map<String, Object> grains() {
            Map<String, Object> all = new LinkedHashMap<>(core);
            all.putAll(file);
            return all;
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
        public Optional<GrainsFile> grainsFile() {
            return Optional.of(this);
        }

        @Override
        public Map<String, Object> read() {
            return new LinkedHashMap<>(file);
        }

        @Override
        public void write(Map<String, Object> grains) {
            writes++;
            file = new LinkedHashMap<>(grains);
        }

        @Override
        public void refreshGrains(boolean refreshPillar) {
            refreshes.add(refreshPillar);
        }
    }

    private final FileBackedContext context = new FileBackedContext();
    private final ModuleRegistry registry = ModuleRegistry.builtIn(context);

    GrainsWritesTest() {
        context.core.put("os_family", "Debian");
        context.core.put("os", "Debian");
        context.core.put("roles_core", List.of("base"));
    }

    private CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    private static Map<String, Object> map(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static Map<String, Object> setResult(String comment, Map<String, Object> changes, boolean result) {
        return map("comment", comment, "changes", changes, "result", result);
    }

    @Test
    void setvalWritesTheFileAndReturnsWhatWasSet() {
        assertThat(call("grains.setval", "role", "web")).isEqualTo(CallResult.ok(Map.of("role", "web")));

        assertThat(context.file).isEqualTo(Map.of("role", "web"));
        assertThat(call("grains.get", "role").ret()).isEqualTo("web");
    }

    @Test
    void setvalsMergesIntoTheExistingFile() {
        context.file.put("keep", 1);

        CallResult result = call("grains.setvals", map("a", "x", "b", List.of(1, 2)));

        assertThat(result).isEqualTo(CallResult.ok(map("a", "x", "b", List.of(1, 2))));
        assertThat(context.file).isEqualTo(map("keep", 1, "a", "x", "b", List.of(1, 2)));
    }

    @Test
    void setvalsRefusesSomethingThatIsNotADictionary() {
        assertThat(call("grains.setvals", "a=b")).isEqualTo(CallResult.failed(
                "ERROR: setvals grains must be a dictionary.", 1));
        assertThat(context.writes).isZero();
    }

    @Test
    void setvalsWithDestructiveRemovesKeysSetToNone() {
        context.file.putAll(map("gone", "x", "stays", "y"));

        call("grains.setvals", map("gone", null), ModuleCalls.kwargs("destructive", true));

        assertThat(context.file).isEqualTo(map("stays", "y"));
    }

    @Test
    void delvalSetsTheGrainToNoneAndKeepsTheKey() {
        context.file.put("color", "red");

        CallResult result = call("grains.delval", "color");

        assertThat(result).isEqualTo(CallResult.ok(setResult("", map("color", null), true)));
        assertThat(context.file).containsEntry("color", null);
    }

    @Test
    void delkeyRemovesTheKey() {
        context.file.putAll(map("color", "red", "size", 3));

        CallResult result = call("grains.delkey", "color");

        assertThat(result).isEqualTo(CallResult.ok(setResult("", map("color", null), true)));
        assertThat(context.file).isEqualTo(map("size", 3));
    }

    @Test
    void delvalOfAListGrainNeedsForce() {
        context.file.put("roles", List.of("web"));

        CallResult refused = call("grains.delval", "roles");
        CallResult forced = call("grains.delval", "roles", ModuleCalls.kwargs("force", true));

        assertThat(refused).isEqualTo(CallResult.failed(setResult("The key 'roles' exists but is a dict or a list. "
                + "Use 'force=True' to overwrite.", Map.of(), false), 1));
        assertThat(forced.success()).isTrue();
        assertThat(context.file).containsEntry("roles", null);
    }

    @Test
    void delvalOfAGrainAlreadyNoneChangesNothing() {
        context.file.put("color", null);

        assertThat(call("grains.delval", "color")).isEqualTo(CallResult.ok(setResult("Grain is already set",
                Map.of(), true)));
        assertThat(context.writes).isZero();
    }

    @Test
    void appendCreatesTheListAndRefusesDuplicates() {
        assertThat(call("grains.append", "roles", "web").ret()).isEqualTo(Map.of("roles", List.of("web")));
        assertThat(call("grains.append", "roles", "db").ret()).isEqualTo(Map.of("roles", List.of("web", "db")));
        assertThat(call("grains.append", "roles", "web")).isEqualTo(CallResult.ok(
                "The val web was already in the list roles"));
        assertThat(context.file).isEqualTo(Map.of("roles", List.of("web", "db")));
    }

    @Test
    void appendToANonListNeedsConvert() {
        context.file.put("role", "web");

        assertThat(call("grains.append", "role", "db")).isEqualTo(CallResult.ok("The key role is not a valid list"));
        assertThat(call("grains.append", "role", "db", ModuleCalls.kwargs("convert", true)).ret())
                .isEqualTo(Map.of("role", List.of("web", "db")));
    }

    @Test
    void appendAListAddsEachItemAndExtendsACoreGrain() {
        assertThat(call("grains.append", "roles_core", List.of("a", "b")).ret())
                .isEqualTo(Map.of("roles_core", List.of("base", "a", "b")));
    }

    @Test
    void appendReachesNestedListsWithTheDelimiter() {
        context.file.put("apps", map("web", map("ports", List.of(80)), "other", "x"));

        CallResult result = call("grains.append", "apps:web:ports", 443);

        assertThat(result.ret()).isEqualTo(Map.of("apps", map("web", map("ports", List.of(80, 443)), "other", "x")));
        assertThat(context.file.get("apps")).isEqualTo(map("web", map("ports", List.of(80, 443)), "other", "x"));
    }

    @Test
    void numbersOfEitherWidthCountAsTheSameValue() {
        context.file.put("ports", List.of(80));

        assertThat(call("grains.append", "ports", 80L).ret()).isEqualTo("The val 80 was already in the list ports");
    }

    @Test
    void setBuildsNestedGrains() {
        CallResult result = call("grains.set", "apps:myApp:port", 2209);

        assertThat(result.success()).isTrue();
        assertThat(context.file).isEqualTo(Map.of("apps", Map.of("myApp", Map.of("port", 2209))));
    }

    @Test
    void writesFailClearlyWithoutAGrainsFile() {
        ModuleRegistry plain = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("m").build());

        for (String fun : List.of("grains.setval", "grains.delval", "grains.delkey", "grains.append")) {
            List<Object> args = fun.equals("grains.setval") || fun.equals("grains.append")
                    ? List.of("k", "v") : List.of("k");
            CallResult result = plain.call(fun, args);
            assertThat(result.success()).as(fun).isFalse();
            assertThat(result.ret()).as(fun).asString().startsWith("ERROR: this minion has no grains file to write");
        }
    }

    @Test
    void filterByPicksTheEntryOfTheMinionsOsFamily() {
        Map<String, Object> lookup = map("Debian", "Debheads rule", "RedHat", "I love my hat");

        assertThat(call("grains.filter_by", lookup).ret()).isEqualTo("Debheads rule");
    }

    @Test
    void filterByMatchesGlobsAndListItemsAndFallsBackToDefault() {
        context.core.put("roles", List.of("db", "web-01"));

        assertThat(call("grains.filter_by", map("web-*", "W", "x", "X"), "roles").ret()).isEqualTo("W");
        assertThat(call("grains.filter_by", map("default", "D", "x", "X"), "os").ret()).isEqualTo("D");
        assertThat(call("grains.filter_by", map("x", "X"), "nosuchgrain").ret()).isNull();
        assertThat(call("grains.filter_by", map("other", "O", "x", "X"), "os", null, "other").ret()).isEqualTo("O");
    }

    @Test
    void filterByMergesOverBaseAndUnderMergeAsSaltsExamples() {
        // Salt's docstring: renders {D: {E: I, G: H}, J: K}
        Map<String, Object> lookup = map("A", "B", "C", map("D", map("E", "F", "G", "H")));
        assertThat(call("grains.filter_by", lookup, "xxx", map("D", map("E", "I"), "J", "K"), "C").ret())
                .isEqualTo(map("D", map("E", "I", "G", "H"), "J", "K"));

        // renders {A: {B: G}, D: J}
        Map<String, Object> withBase = map("default", map("A", map("B", "C"), "D", "E"), "F", map("A", map("B", "G")),
                "H", map("D", "I"));
        assertThat(call("grains.filter_by", withBase, "xxx", map("D", "J"), "F", "default").ret())
                .isEqualTo(map("A", map("B", "G"), "D", "J"));
    }

    @Test
    void filterByRefusesAMergeThatIsNotADictionary() {
        assertThat(call("grains.filter_by", map("Debian", map("a", 1)), "os_family", List.of(1)).ret())
                .isEqualTo("ERROR: filter_by merge argument must be a dictionary.");
    }

    @Test
    void anEmptyDelimiterIsRefusedInsteadOfLoopingForever() {
        context.file.put("role", "web");

        CallResult[] results = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(5),
                () -> new CallResult[] {
                    call("grains.append", "role", "db", ModuleCalls.kwargs("convert", true, "delimiter", "")),
                    call("grains.set", "apps:port", 1, ModuleCalls.kwargs("delimiter", ""))});

        for (CallResult result : results) {
            assertThat(result).isEqualTo(CallResult.failed("ERROR: delimiter must not be empty: it separates the "
                    + "levels of a nested key (default ':')", 1));
        }
        assertThat(context.writes).isZero();
    }

    @Test
    void everyWriteRefreshesTheGrainsAndTellsTheMasterAsSaltsRefreshGrainsDoes() {
        call("grains.setval", "a", 1);
        call("grains.setvals", map("b", 2));
        call("grains.append", "roles", "web");
        call("grains.set", "apps:port", 2209);
        call("grains.delval", "a");
        call("grains.delkey", "b");

        assertThat(context.refreshes).containsExactly(true, true, true, true, true, true);
    }

    @Test
    void refreshPillarFalseRefreshesTheGrainsWithoutAskingForThePillar() {
        call("grains.setval", "a", 1, ModuleCalls.kwargs("refresh_pillar", false));
        call("grains.setvals", map("b", 2), ModuleCalls.kwargs("refresh_pillar", false));

        assertThat(context.refreshes).containsExactly(false, false);
        assertThat(context.file).containsEntry("a", 1).containsEntry("b", 2);
    }
}
