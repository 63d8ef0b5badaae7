package io.jsalt.states.render;

import java.math.BigInteger;
import java.util.Map;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.constructor.ConstructYamlNull;
import org.snakeyaml.engine.v2.constructor.json.ConstructYamlBinary;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.Schema;

/**
 * The plain scalars of SLS and pillar files as Salt reads them: PyYAML's YAML 1.1 resolvers under Salt's
 * {@code SaltYamlSafeLoader}. {@code yes}/{@code no}/{@code on}/{@code off} and {@code True}/{@code False} are
 * booleans, {@code ~} and {@code Null} are None, {@code 0b}/{@code 0x}/sexagesimal and {@code _}-grouped numbers
 * are integers, a date stays text, and an integer written with leading zeros loses them ({@code mode: 0755} is
 * 755, not octal 493: Salt's loader strips them so that a mode reads as written). YAML 1.2's JSON schema, the
 * engine's default, read {@code False} as the text "False", which Jinja then took for true.
 */
final class SaltYamlSchema implements Schema {
    private static final Pattern BOOL = Pattern.compile("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
    private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
    private static final Pattern INT = Pattern.compile("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)"
            + "|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
    private static final Pattern FLOAT = Pattern.compile("[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?"
            + "|\\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
            + "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");

    private static final ScalarResolver RESOLVER = (value, implicit) -> {
        if (!implicit) {
            return Tag.STR;
        }
        if (NULL.matcher(value).matches()) {
            return Tag.NULL;
        }
        if (BOOL.matcher(value).matches()) {
            return Tag.BOOL;
        }
        if (INT.matcher(value).matches()) {
            return Tag.INT;
        }
        return FLOAT.matcher(value).matches() ? Tag.FLOAT : Tag.STR;
    };

    static final SaltYamlSchema INSTANCE = new SaltYamlSchema();

    private SaltYamlSchema() {
    }

    @Override
    public ScalarResolver getScalarResolver() {
        return RESOLVER;
    }

    @Override
    public Map<Tag, ConstructNode> getSchemaTagConstructors() {
        return Map.of(Tag.NULL, new ConstructYamlNull(), Tag.BOOL, SaltYamlSchema::bool, Tag.INT, SaltYamlSchema::integer,
                Tag.FLOAT, SaltYamlSchema::real, Tag.BINARY, new ConstructYamlBinary());
    }

    private static String text(Node node) {
        return ((ScalarNode) node).getValue();
    }

    private static Object bool(Node node) {
        String v = text(node).toLowerCase();
        return v.equals("yes") || v.equals("true") || v.equals("on");
    }

    /** PyYAML's construct_yaml_int, after Salt's loader has stripped the leading zeros of an unsigned value. */
    static Object integer(Node node) {
        String v = text(node).replace("_", "");
        if (v.startsWith("0") && !v.startsWith("0b") && !v.startsWith("0x")) {
            v = v.replaceFirst("^0+", "");
            v = v.isEmpty() ? "0" : v;
        }
        int sign = 1;
        if (v.startsWith("-") || v.startsWith("+")) {
            sign = v.charAt(0) == '-' ? -1 : 1;
            v = v.substring(1);
        }
        BigInteger n;
        if (v.equals("0")) {
            n = BigInteger.ZERO;
        } else if (v.startsWith("0b")) {
            n = new BigInteger(v.substring(2), 2);
        } else if (v.startsWith("0x")) {
            n = new BigInteger(v.substring(2), 16);
        } else if (v.startsWith("0")) {
            n = new BigInteger(v, 8); // only a signed value keeps its zeros: Salt reads -0755 as octal, as PyYAML
        } else if (v.contains(":")) {
            n = BigInteger.ZERO;
            for (String digits : v.split(":")) {
                n = n.multiply(BigInteger.valueOf(60)).add(new BigInteger(digits));
            }
        } else {
            n = new BigInteger(v);
        }
        return narrow(sign < 0 ? n.negate() : n);
    }

    private static Object narrow(BigInteger n) {
        if (n.bitLength() < 32) {
            return n.intValue();
        }
        return n.bitLength() < 64 ? (Object) n.longValue() : n;
    }

    /** PyYAML's construct_yaml_float. */
    static Object real(Node node) {
        String v = text(node).replace("_", "").toLowerCase();
        double sign = 1;
        if (v.startsWith("-") || v.startsWith("+")) {
            sign = v.charAt(0) == '-' ? -1 : 1;
            v = v.substring(1);
        }
        if (v.equals(".inf")) {
            return sign * Double.POSITIVE_INFINITY;
        }
        if (v.equals(".nan")) {
            return Double.NaN;
        }
        if (v.contains(":")) {
            double value = 0;
            for (String part : v.split(":")) {
                value = value * 60 + Double.parseDouble(part);
            }
            return sign * value;
        }
        return sign * Double.parseDouble(v);
    }
}
