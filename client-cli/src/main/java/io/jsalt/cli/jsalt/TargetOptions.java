package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Salt's targeting flags; the master resolves every form (tgt_type wire names as Salt's). */
final class TargetOptions {
    @Option(names = {"-E", "--pcre"}, description = "The target is a regular expression on minion ids (Salt's pcre).")
    boolean pcre;

    @Option(names = {"-L", "--list"}, description = "The target is a comma-separated list of minion ids.")
    boolean list;

    @Option(names = {"-G", "--grain"}, description = "The target is a grain match, key:value with globs; nested keys with ':'.")
    boolean grain;

    @Option(names = {"-P", "--grain-pcre"}, description = "The target is a grain match whose value is a regular expression.")
    boolean grainPcre;

    @Option(names = {"-I", "--pillar"}, description = "The target is a pillar match, key:value with globs; nested keys with ':'.")
    boolean pillar;

    @Option(names = {"-J", "--pillar-pcre"}, description = "The target is a pillar match whose value is a regular expression.")
    boolean pillarPcre;

    @Option(names = {"-S", "--ipcidr"}, description = "The target is an IP address or CIDR subnet of the minions' ipv4/ipv6 grains.")
    boolean ipcidr;

    @Option(names = {"-C", "--compound"}, description = "The target is a compound expression (G@ P@ I@ J@ E@ L@ S@ N@, and/or/not, parentheses).")
    boolean compound;

    @Option(names = {"-N", "--nodegroup"}, description = "The target is a nodegroup from the master's 'nodegroups'.")
    boolean nodegroup;

    /** The tgt_type the flags select: glob when none; a usage error when several. */
    String tgtType() {
        Map<String, Boolean> chosen = new LinkedHashMap<>();
        chosen.put("pcre", pcre);
        chosen.put("list", list);
        chosen.put("grain", grain);
        chosen.put("grain_pcre", grainPcre);
        chosen.put("pillar", pillar);
        chosen.put("pillar_pcre", pillarPcre);
        chosen.put("ipcidr", ipcidr);
        chosen.put("compound", compound);
        chosen.put("nodegroup", nodegroup);
        List<String> on = chosen.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
        if (on.size() > 1) {
            throw new CliException(ExitCode.USAGE, "choose one of -E, -L, -G, -P, -I, -J, -S, -C, -N");
        }
        return on.isEmpty() ? "glob" : on.get(0);
    }

    /** The target as Salt's CLI sends it: a list target becomes a list of ids (blanks removed), others stay text. */
    Object tgt(String target) {
        if (!list) {
            return target;
        }
        String[] ids = target.contains(",") ? target.replace(" ", "").split(",") : target.strip().split("\\s+");
        return Arrays.stream(ids).filter(id -> !id.isEmpty()).toList();
    }
}
