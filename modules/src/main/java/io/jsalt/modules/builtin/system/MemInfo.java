package io.jsalt.modules.builtin.system;

import java.util.LinkedHashMap;
import java.util.Map;

/** The fields of /proc/meminfo, in kernel order: {@code MemTotal -> (7865432, "kB")}. */
public record MemInfo(Map<String, Entry> entries) {

    /** One line: its number and its unit ("kB", or "" for counts such as HugePages_Total). */
    public record Entry(long value, String unit) {
    }

    public MemInfo {
        entries = Map.copyOf(entries);
    }

    public static MemInfo parse(String text) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String[] parts = line.substring(colon + 1).trim().split("\\s+");
            try {
                entries.put(line.substring(0, colon).trim(),
                        new Entry(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : ""));
            } catch (NumberFormatException e) {
                // a line the kernel may add in some other shape: not a number, not ours to report
            }
        }
        return new MemInfo(new LinkedHashMap<>(entries));
    }

    /** The value in bytes (kB lines are KiB), or 0 when the kernel does not report the field. */
    public long bytes(String field) {
        Entry entry = entries.get(field);
        if (entry == null) {
            return 0;
        }
        return "kB".equals(entry.unit()) ? entry.value() * 1024 : entry.value();
    }

    public boolean has(String field) {
        return entries.containsKey(field);
    }
}
