package io.jsalt.modules.builtin.accounts;

import java.util.ArrayList;
import java.util.List;

/** One line of /etc/group: {@code name:passwd:gid:member,member}. */
public record GroupEntry(String name, String passwd, long gid, List<String> members) {

    public GroupEntry {
        members = List.copyOf(members);
    }

    /** Parses the file, skipping comments, blank lines, NIS "+" lines and lines of the wrong shape. */
    public static List<GroupEntry> parseFile(String text) {
        List<GroupEntry> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("+") || line.startsWith("-")) {
                continue;
            }
            String[] fields = line.split(":", -1);
            if (fields.length < 4) {
                continue;
            }
            List<String> members = new ArrayList<>();
            for (String member : fields[3].split(",")) {
                if (!member.isBlank()) {
                    members.add(member.trim());
                }
            }
            try {
                entries.add(new GroupEntry(fields[0], fields[1], Long.parseLong(fields[2]), members));
            } catch (NumberFormatException e) {
                // a corrupt line: getent skips it too
            }
        }
        return entries;
    }
}
