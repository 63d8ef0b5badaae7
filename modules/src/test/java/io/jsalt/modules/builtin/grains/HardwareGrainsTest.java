package io.jsalt.modules.builtin.grains;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HardwareGrainsTest {

    @Test
    void cpuGrainsComeFromCpuinfo() {
        String cpuinfo = """
                processor\t: 0
                model name\t: AMD EPYC 7B13
                flags\t\t: fpu vme sse2
                
                processor\t: 1
                model name\t: AMD EPYC 7B13
                flags\t\t: fpu vme sse2
                """;

        assertThat(HardwareGrains.cpu(cpuinfo)).isEqualTo(Map.of("num_cpus", 2, "cpu_model", "AMD EPYC 7B13",
                "cpu_flags", List.of("fpu", "vme", "sse2")));
    }

    @Test
    void armCpuinfoUsesFeatures() {
        assertThat(HardwareGrains.cpu("processor : 0\nFeatures : fp asimd\n"))
                .isEqualTo(Map.of("num_cpus", 1, "cpu_flags", List.of("fp", "asimd")));
    }

    @Test
    void memoryIsReportedInMebibytes() {
        assertThat(HardwareGrains.memory("MemTotal:       24683656 kB\nMemFree: 1 kB\nSwapTotal:             0 kB\n"))
                .isEqualTo(Map.of("mem_total", 24105, "swap_total", 0));
        assertThat(HardwareGrains.memory("MemTotal: lots\n")).isEmpty();
    }
}
