package io.jsalt.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FanoutPlotTest {
    @TempDir
    Path dir;

    private static Map<String, Double> series(double p50, double last) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("p50", p50);
        m.put("last return", last);
        return m;
    }

    @Test
    void writesAPngWithTheSeriesDrawnInColour() throws Exception {
        Path png = dir.resolve("plots/fanout.png");

        FanoutPlot.write(List.of(new FanoutPlot.Point(1, series(2, 3)), new FanoutPlot.Point(100, series(20, 45)),
                new FanoutPlot.Point(10_000, series(400, 1900))), "fan-out", png);

        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(900);
        assertThat(img.getHeight()).isEqualTo(560);
        long coloured = 0;
        for (int x = 0; x < img.getWidth(); x++) {
            for (int y = 0; y < img.getHeight(); y++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
                    coloured++;
                }
            }
        }
        assertThat(coloured).as("pixels of the series' lines and dots").isGreaterThan(500);
    }

    @Test
    void skipsMissingOrZeroValuesInsteadOfFailing() throws Exception {
        Path png = dir.resolve("empty.png");

        FanoutPlot.write(List.of(new FanoutPlot.Point(10, series(0, 0))), "nothing measured", png);

        assertThat(ImageIO.read(png.toFile())).isNotNull();
    }
}
