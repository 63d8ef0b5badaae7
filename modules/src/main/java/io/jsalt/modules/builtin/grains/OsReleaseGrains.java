package io.jsalt.modules.builtin.grains;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code os*} grains from {@code /etc/os-release}, named the way Salt names them ({@code os} is
 * "Debian", "Ubuntu", "RedHat", "Rocky"...; {@code os_family} is "Debian", "RedHat", "Suse"...), so that
 * targeting such as {@code -G 'os_family:Debian'} picks the same minions as under Salt.
 */
public final class OsReleaseGrains {

    // Salt's _REPLACE_LINUX_RE and _OS_NAME_MAP (salt/grains/core.py), keyed by the first ten letters
    private static final Pattern LINUX_WORD = Pattern.compile("\\W(?:gnu/)?linux", Pattern.CASE_INSENSITIVE);
    private static final Map<String, String> OS_NAMES = Map.ofEntries(
            Map.entry("redhatente", "RedHat"), Map.entry("gentoobase", "Gentoo"), Map.entry("archarm", "Arch ARM"),
            Map.entry("arch", "Arch"), Map.entry("debian", "Debian"), Map.entry("raspbian", "Raspbian"),
            Map.entry("fedoraremi", "Fedora"), Map.entry("chapeau", "Chapeau"), Map.entry("korora", "Korora"),
            Map.entry("amazonami", "Amazon"), Map.entry("alt", "ALT"), Map.entry("enterprise", "OEL"),
            Map.entry("oracleserv", "OEL"), Map.entry("cloudserve", "CloudLinux"),
            Map.entry("cloudlinux", "CloudLinux"), Map.entry("almalinux", "AlmaLinux"),
            Map.entry("pidora", "Fedora"), Map.entry("scientific", "ScientificLinux"),
            Map.entry("synology", "Synology"), Map.entry("nilrt", "NILinuxRT"), Map.entry("poky", "Poky"),
            Map.entry("manjaro", "Manjaro"), Map.entry("manjarolin", "Manjaro"),
            Map.entry("univention", "Univention"), Map.entry("antergos", "Antergos"), Map.entry("sles", "SUSE"),
            Map.entry("void", "Void"), Map.entry("slesexpand", "RES"), Map.entry("linuxmint", "Mint"),
            Map.entry("neon", "KDE neon"), Map.entry("pop", "Pop"), Map.entry("rocky", "Rocky"),
            Map.entry("alinux", "Alinux"), Map.entry("mendel", "Mendel"), Map.entry("photon", "VMware Photon OS"));

    // Salt's _OS_FAMILY_MAP; an os missing here is its own family
    private static final Map<String, String> OS_FAMILIES = Map.ofEntries(
            Map.entry("Ubuntu", "Debian"), Map.entry("Fedora", "RedHat"), Map.entry("Chapeau", "RedHat"),
            Map.entry("Korora", "RedHat"), Map.entry("FedBerry", "RedHat"), Map.entry("CentOS", "RedHat"),
            Map.entry("CentOS Stream", "RedHat"), Map.entry("GoOSe", "RedHat"), Map.entry("Scientific", "RedHat"),
            Map.entry("Amazon", "RedHat"), Map.entry("CloudLinux", "RedHat"), Map.entry("AlmaLinux", "RedHat"),
            Map.entry("OVS", "RedHat"), Map.entry("OEL", "RedHat"), Map.entry("XCP", "RedHat"),
            Map.entry("XCP-ng", "RedHat"), Map.entry("XenServer", "RedHat"), Map.entry("RES", "RedHat"),
            Map.entry("Sangoma", "RedHat"), Map.entry("VMware Photon OS", "RedHat"), Map.entry("Mandrake", "Mandriva"),
            Map.entry("ESXi", "VMware"), Map.entry("Mint", "Debian"), Map.entry("VMwareESX", "VMware"),
            Map.entry("Bluewhite64", "Bluewhite"), Map.entry("Slamd64", "Slackware"), Map.entry("SLES", "Suse"),
            Map.entry("SUSE Enterprise Server", "Suse"), Map.entry("SLED", "Suse"), Map.entry("openSUSE", "Suse"),
            Map.entry("SUSE", "Suse"), Map.entry("openSUSE Leap", "Suse"), Map.entry("openSUSE Tumbleweed", "Suse"),
            Map.entry("SLES_SAP", "Suse"), Map.entry("Arch ARM", "Arch"), Map.entry("Manjaro", "Arch"),
            Map.entry("Antergos", "Arch"), Map.entry("ALT", "RedHat"), Map.entry("Trisquel", "Debian"),
            Map.entry("GCEL", "Debian"), Map.entry("Linaro", "Debian"), Map.entry("elementary OS", "Debian"),
            Map.entry("elementary", "Debian"), Map.entry("Univention", "Debian"),
            Map.entry("ScientificLinux", "RedHat"), Map.entry("Raspbian", "Debian"), Map.entry("Devuan", "Debian"),
            Map.entry("antiX", "Debian"), Map.entry("Kali", "Debian"), Map.entry("neon", "Debian"),
            Map.entry("Cumulus", "Debian"), Map.entry("Deepin", "Debian"), Map.entry("NILinuxRT", "NILinuxRT"),
            Map.entry("KDE neon", "Debian"), Map.entry("Void", "Void"), Map.entry("IDMS", "Debian"),
            Map.entry("Funtoo", "Gentoo"), Map.entry("TurnKey", "Debian"), Map.entry("Pop", "Debian"),
            Map.entry("Rocky", "RedHat"), Map.entry("AstraLinuxCE", "Debian"), Map.entry("AstraLinuxSE", "Debian"),
            Map.entry("Alinux", "RedHat"), Map.entry("Mendel", "Debian"));

    /** ID_LIKE words, for distributions Salt's tables do not know. */
    private static final Map<String, String> FAMILY_BY_ID_LIKE = Map.of(
            "debian", "Debian", "ubuntu", "Debian", "rhel", "RedHat", "fedora", "RedHat", "centos", "RedHat",
            "suse", "Suse", "arch", "Arch", "gentoo", "Gentoo");

    /** Salt's osfinger uses os rather than osfullname for these. */
    private static final Set<String> FINGER_BY_OS = Set.of("Debian", "FreeBSD", "OpenBSD", "NetBSD", "Mac", "Raspbian");

    private OsReleaseGrains() {
    }

    /** The KEY=value pairs of an os-release file, unquoted. */
    public static Map<String, String> parse(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            int eq = trimmed.indexOf('=');
            if (trimmed.isEmpty() || trimmed.startsWith("#") || eq <= 0) {
                continue;
            }
            fields.put(trimmed.substring(0, eq), unquote(trimmed.substring(eq + 1)));
        }
        return fields;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
                && value.charAt(value.length() - 1) == value.charAt(0)) {
            value = value.substring(1, value.length() - 1);
        }
        return value.replaceAll("\\\\([\"'$`\\\\])", "$1");
    }

    /**
     * The grains os, os_family, osfullname, osrelease, osrelease_info, osmajorrelease, oscodename,
     * osfinger, osarch and lsb_distrib_* that an os-release file yields; absent fields give absent grains.
     */
    public static Map<String, Object> grains(Map<String, String> osRelease, String cpuarch) {
        Map<String, Object> grains = new LinkedHashMap<>();
        String fullName = osRelease.getOrDefault("NAME", "").strip();
        if (fullName.isEmpty()) {
            return grains;
        }
        String os = osName(fullName);
        String family = osFamily(os, osRelease.getOrDefault("ID", ""), osRelease.getOrDefault("ID_LIKE", ""));
        grains.put("osfullname", fullName);
        grains.put("os", os);
        grains.put("os_family", family);
        grains.put("lsb_distrib_id", fullName);
        putIfPresent(grains, "oscodename", osRelease.get("VERSION_CODENAME"));
        putIfPresent(grains, "lsb_distrib_codename", osRelease.get("VERSION_CODENAME"));
        putIfPresent(grains, "lsb_distrib_description", osRelease.get("PRETTY_NAME"));
        String release = osRelease.getOrDefault("VERSION_ID", "").strip();
        if (!release.isEmpty()) {
            grains.put("osrelease", release);
            grains.put("lsb_distrib_release", release);
            List<Object> info = releaseInfo(release);
            grains.put("osrelease_info", info);
            if (!info.isEmpty() && info.get(0) instanceof Integer major) {
                grains.put("osmajorrelease", major);
                String fingerName = FINGER_BY_OS.contains(os) ? os : fullName;
                grains.put("osfinger", fingerName + "-" + (fingerName.equals("Ubuntu") ? release : major));
            }
        }
        if (cpuarch != null) {
            grains.put("osarch", family.equals("Debian") ? debianArch(cpuarch) : cpuarch);
        }
        return grains;
    }

    /** Salt's _derive_os_grain: drop "Linux"/"GNU/Linux", then map the first ten letters. */
    static String osName(String fullName) {
        String distro = LINUX_WORD.matcher(fullName).replaceAll("").strip();
        String shortName = distro.replace(" ", "").toLowerCase(Locale.ROOT);
        shortName = shortName.length() > 10 ? shortName.substring(0, 10) : shortName;
        return OS_NAMES.getOrDefault(shortName, distro);
    }

    static String osFamily(String os, String id, String idLike) {
        String family = OS_FAMILIES.get(os);
        if (family != null) {
            return family;
        }
        for (String like : (id + " " + idLike).strip().split("\\s+")) {
            String known = FAMILY_BY_ID_LIKE.get(like.toLowerCase(Locale.ROOT));
            if (known != null) {
                return known;
            }
        }
        return os;
    }

    private static List<Object> releaseInfo(String release) {
        List<Object> info = new ArrayList<>();
        for (String part : release.split("\\.")) {
            try {
                info.add(Integer.parseInt(part));
            } catch (NumberFormatException e) {
                info.add(part);
            }
        }
        return info;
    }

    /** What dpkg calls the architecture, which Salt reports as osarch on Debian-family systems. */
    private static String debianArch(String cpuarch) {
        return switch (cpuarch) {
            case "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            case "i386", "i486", "i586", "i686" -> "i386";
            case "armv7l" -> "armhf";
            default -> cpuarch;
        };
    }

    private static void putIfPresent(Map<String, Object> grains, String name, String value) {
        if (value != null && !value.isBlank()) {
            grains.put(name, value.strip());
        }
    }
}
