package io.jsalt.states.builtin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jsalt.modules.builtin.cmd.CommandLine;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code stateful} protocol for {@code cmd.run} and {@code cmd.script} ({@code _reinterpreted_state} of
 * salt/states/cmd.py): a command that prints a JSON object, or ends with a line of {@code name=value} pairs, says
 * itself whether it {@code changed} anything and what the {@code comment} is.
 */
final class StatefulOutput {
    // Python's json.loads refuses text after the value ("Extra data"); Jackson must be told to
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StatefulOutput() {
    }

    static StateResult reinterpret(StateResult state) {
        Map<String, Object> ret = state.changes();
        Object stdout = ret.get("stdout");
        String out = stdout == null ? "" : String.valueOf(stdout);
        if (out.isEmpty()) {
            Object stderr = ret.get("stderr");
            boolean hasErr = stderr != null && !String.valueOf(stderr).isEmpty();
            return new StateResult(state.result(), Map.of(), hasErr ? String.valueOf(stderr) : "");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        boolean isJson;
        int idx = -1;
        Object parsed = json(out);
        if (parsed != null) {
            if (!(parsed instanceof Map<?, ?> map)) {
                return new StateResult(false, Map.of(), "script JSON output must be a JSON object (e.g., {})!");
            }
            map.forEach((k, v) -> data.put(String.valueOf(k), v));
            isJson = true;
        } else {
            isJson = false;
            idx = out.stripTrailing().lastIndexOf('\n');
            String last = idx == -1 ? out : out.substring(idx + 1);
            List<String> items;
            try {
                items = CommandLine.split(last);
            } catch (RuntimeException e) {
                items = null;
            }
            if (items == null || !items.stream().allMatch(item -> item.split("=", -1).length == 2)) {
                return new StateResult(false, ret,
                        "Failed parsing script output! Stdout must be JSON or a line of name=value pairs.");
            }
            for (String item : items) {
                String[] kv = item.split("=", -1);
                data.put(kv[0], kv[1]);
            }
        }
        boolean changed = isTrue(data.getOrDefault("changed", "no"));
        String comment = "";
        if (data.containsKey("comment")) {
            comment = String.valueOf(data.remove("comment"));
        }
        if (!changed) {
            return new StateResult(state.result(), Map.of(), comment);
        }
        ret.forEach(data::putIfAbsent);
        data.put("stdout", isJson ? "" : pythonSlice(String.valueOf(data.getOrDefault("stdout", "")), idx));
        return new StateResult(state.result(), data, comment);
    }

    /** Python's {@code s[:idx]}: a negative index counts from the end (Salt's -1 chops the last character). */
    private static String pythonSlice(String s, int idx) {
        int end = idx < 0 ? Math.max(0, s.length() + idx) : Math.min(idx, s.length());
        return s.substring(0, end);
    }

    private static Object json(String text) {
        try {
            return JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** Salt's {@code _is_true}: anything but true/yes/1 and false/no/0 is an error. */
    private static boolean isTrue(Object val) {
        String s = String.valueOf(val).toLowerCase();
        boolean truthy = val != null && !(val instanceof Boolean b && !b) && !s.isEmpty();
        if (truthy && List.of("true", "yes", "1").contains(s)) {
            return true;
        }
        if (List.of("false", "no", "0").contains(s)) {
            return false;
        }
        throw new StatesException("Failed parsing boolean value: " + val);
    }
}
