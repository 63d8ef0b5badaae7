package io.jsalt.modules.builtin.accounts;

import java.util.ArrayList;
import java.util.List;

/** One line of /etc/passwd: {@code name:passwd:uid:gid:gecos:home:shell}. */
public record PasswdEntry(String name, String passwd, long uid, long gid, String gecos, String home, String shell) {

    /** Parses the file, skipping comments, blank lines, NIS "+" lines and lines of the wrong shape. */
    public static List<PasswdEntry> parseFile(String text) {
        List<PasswdEntry> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("+") || line.startsWith("-")) {
                continue;
            }
            String[] fields = line.split(":", -1);
            if (fields.length < 7) {
                continue;
            }
            try {
                entries.add(new PasswdEntry(fields[0], fields[1], Long.parseLong(fields[2]), Long.parseLong(fields[3]),
                        fields[4], fields[5], fields[6]));
            } catch (NumberFormatException e) {
                // a corrupt line: getent skips it too
            }
        }
        return entries;
    }

    /** The GECOS field split as chfn writes it: full name, room, work phone, home phone, other. */
    public List<String> gecosFields() {
        String[] parts = gecos.split(",", 5);
        List<String> fields = new ArrayList<>(List.of(parts));
        while (fields.size() < 5) {
            fields.add("");
        }
        return fields;
    }
}
