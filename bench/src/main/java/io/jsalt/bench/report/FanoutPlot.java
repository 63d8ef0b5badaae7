package io.jsalt.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Fan-out latency against the number of minions, drawn with Java2D (headless) into a PNG: log-scaled N
 * on x, log-scaled milliseconds on y, one line per series (p50, p95, p99, last return, CLI wall).
 */
public final class FanoutPlot {
    /** One measured N and its figures in milliseconds, by series name. */
    public record Point(int n, Map<String, Double> millis) {}

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b)};

    private FanoutPlot() {
    }

    public static void write(List<Point> points, String title, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            draw(g, points, title);
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(img, "png", png.toFile());
    }

    private static void draw(Graphics2D g, List<Point> points, String title) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 30);
        double nMin = 1;
        double nMax = 10;
        double yMin = 1;
        double yMax = 10;
        Map<String, Integer> series = new LinkedHashMap<>();
        for (Point p : points) {
            nMax = Math.max(nMax, p.n());
            for (Map.Entry<String, Double> e : p.millis().entrySet()) {
                series.putIfAbsent(e.getKey(), series.size());
                if (e.getValue() > 0) {
                    yMin = Math.min(yMin, e.getValue());
                    yMax = Math.max(yMax, e.getValue());
                }
            }
        }
        Axis x = new Axis(Math.pow(10, Math.floor(Math.log10(nMin))), Math.pow(10, Math.ceil(Math.log10(nMax))), LEFT, WIDTH - RIGHT);
        Axis y = new Axis(Math.pow(10, Math.floor(Math.log10(yMin))), Math.pow(10, Math.ceil(Math.log10(yMax))), HEIGHT - BOTTOM, TOP);
        grid(g, x, y);
        g.setStroke(new BasicStroke(2.2f));
        for (Map.Entry<String, Integer> s : series.entrySet()) {
            g.setColor(COLORS[s.getValue() % COLORS.length]);
            int[] last = null;
            for (Point p : points) {
                Double v = p.millis().get(s.getKey());
                if (v == null || v <= 0) {
                    continue;
                }
                int[] at = {x.map(p.n()), y.map(v)};
                g.fillOval(at[0] - 4, at[1] - 4, 8, 8);
                if (last != null) {
                    g.drawLine(last[0], last[1], at[0], at[1]);
                }
                last = at;
            }
            int ly = TOP + 20 + 22 * s.getValue();
            g.drawLine(WIDTH - RIGHT + 15, ly - 5, WIDTH - RIGHT + 40, ly - 5);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            g.drawString(s.getKey(), WIDTH - RIGHT + 46, ly);
        }
    }

    private static void grid(Graphics2D g, Axis x, Axis y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double d = x.min; d <= x.max * 1.0001; d *= 10) {
            int px = x.map(d);
            g.setColor(new Color(0xdddddd));
            g.drawLine(px, y.map(y.min), px, y.map(y.max));
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%,d", (long) d), px - 12, HEIGHT - BOTTOM + 18);
        }
        for (double d = y.min; d <= y.max * 1.0001; d *= 10) {
            int py = y.map(d);
            g.setColor(new Color(0xdddddd));
            g.drawLine(x.map(x.min), py, x.map(x.max), py);
            g.setColor(Color.BLACK);
            String label = d >= 1 ? String.format(Locale.ROOT, "%,d ms", (long) d) : String.format(Locale.ROOT, "%.1f ms", d);
            g.drawString(label, 8, py + 4);
        }
        g.setColor(Color.BLACK);
        g.drawRect(x.map(x.min), y.map(y.max), x.map(x.max) - x.map(x.min), y.map(y.min) - y.map(y.max));
        g.drawString("minions (N, log scale)", (LEFT + WIDTH - RIGHT) / 2 - 60, HEIGHT - 20);
    }

    /** A log-scaled axis from value range to pixel range. */
    private record Axis(double min, double max, int from, int to) {
        int map(double v) {
            double t = (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
            return (int) Math.round(from + t * (to - from));
        }
    }
}
