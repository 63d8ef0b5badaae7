package io.jsalt.cli.output;

/**
 * The terminal colours of Salt's outputters (salt/utils/color.py get_colors over salt/textformat.py): each
 * sequence starts with a reset, so {@code GREEN} is {@code ESC[0;32m} and the end mark is {@code ESC[0;0m}.
 * {@link #NONE} prints no escape at all: for pipes, files and {@code --no-color}.
 */
public record Palette(String green, String lightYellow, String cyan, String red, String yellow, String lightRed, String end) {
    public static final Palette SALT = new Palette(sgr("32"), sgr("1;33"), sgr("36"), sgr("31"), sgr("33"), sgr("1;31"), sgr("0"));

    public static final Palette NONE = new Palette("", "", "", "", "", "", "");

    private static String sgr(String codes) {
        return "\u001b[0;" + codes + "m";
    }

    /** Colours only when the output is a terminal, unless forced on or off (Salt's --force-color, --no-color). */
    public static Palette choose(boolean terminal, boolean forceColor, boolean noColor) {
        if (forceColor) {
            return SALT;
        }
        return noColor || !terminal ? NONE : SALT;
    }

    public boolean colored() {
        return !end.isEmpty();
    }
}
