package io.jsalt.states.render;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpreterFactory;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;

/**
 * Prints {@code {{ value }}} as Jinja2 does, with Python's {@code str()}: {@code True}, {@code {'port': 80}},
 * {@code ['a', 'b']}. Jinjava prints Java's {@code toString()} ({@code true}, {@code {port=80}}), which changes a
 * managed file's contents and, in an SLS, what YAML reads ({@code {port=80}} is a mapping of one key "port=80").
 * A null prints empty: Jinjava cannot tell an undefined variable (empty in Jinja2) from a None.
 */
final class PythonOutput implements InterpreterFactory {

    @Override
    public JinjavaInterpreter newInstance(JinjavaInterpreter original) {
        return new Interpreter(original);
    }

    @Override
    public JinjavaInterpreter newInstance(Jinjava jinjava, Context context, JinjavaConfig config) {
        return new Interpreter(jinjava, context, config);
    }

    private static final class Interpreter extends JinjavaInterpreter {
        Interpreter(JinjavaInterpreter original) {
            super(original);
        }

        Interpreter(Jinjava jinjava, Context context, JinjavaConfig config) {
            super(jinjava, context, config);
        }

        @Override
        public String getAsString(Object object) {
            return object == null ? "" : PythonValues.str(object);
        }
    }
}
