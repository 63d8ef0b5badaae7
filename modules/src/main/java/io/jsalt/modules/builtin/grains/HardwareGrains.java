package io.jsalt.modules.builtin.grains;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CPU and memory grains from the text of {@code /proc/cpuinfo} and {@code /proc/meminfo}. */
public final class HardwareGrains {

    private HardwareGrains() {
    }

    /** num_cpus, cpu_model and cpu_flags, as far as the file tells them. */
    public static Map<String, Object> cpu(String cpuinfo) {
        Map<String, Object> grains = new LinkedHashMap<>();
        int processors = 0;
        String model = null;
        List<String> flags = null;
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "processor" -> processors++;
                // x86 names the model "model name"; some ARM kernels only give "Hardware" or "Model"
                case "model name", "Hardware", "Model", "cpu model" -> {
                    if (model == null && !value.isEmpty()) {
                        model = value;
                    }
                }
                case "flags", "Features" -> {
                    if (flags == null && !value.isEmpty()) {
                        flags = Arrays.asList(value.split("\\s+"));
                    }
                }
                default -> {
                    // other fields are not grains
                }
            }
        }
        if (processors > 0) {
            grains.put("num_cpus", processors);
        }
        if (model != null) {
            grains.put("cpu_model", model);
        }
        if (flags != null) {
            grains.put("cpu_flags", flags);
        }
        return grains;
    }

    /** mem_total and swap_total in MiB, as Salt reports them. */
    public static Map<String, Object> memory(String meminfo) {
        Map<String, Object> grains = new LinkedHashMap<>();
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                putMebibytes(grains, "mem_total", line);
            } else if (line.startsWith("SwapTotal:")) {
                putMebibytes(grains, "swap_total", line);
            }
        }
        return grains;
    }

    private static void putMebibytes(Map<String, Object> grains, String name, String line) {
        String[] parts = line.substring(line.indexOf(':') + 1).strip().split("\\s+");
        try {
            long kib = Long.parseLong(parts[0]);
            grains.put(name, (int) (kib / 1024));
        } catch (NumberFormatException e) {
            // a malformed line gives no grain
        }
    }
}
