package io.jsalt.master.runner;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** A runner function's name and parameters, printed as Python would: {@code jobs.lookup_jid(jid, missing=False)}. */
public record RunnerSignature(String fun, List<Parameter> parameters) {
    public RunnerSignature {
        parameters = List.copyOf(parameters);
    }

    public static RunnerSignature of(String fun, Parameter... parameters) {
        return new RunnerSignature(fun, List.of(parameters));
    }

    /**
     * Binds a call's {@code arg} and {@code kwarg} to these parameters with Salt's rules ({@link ArgumentBinder});
     * also the wheel's, whose functions take keyword arguments as runners do.
     *
     * @throws InvalidRunnerArgumentsException in Salt's words, when they do not fit
     */
    public RunnerArgs bind(List<Object> arg, java.util.Map<String, Object> kwarg) {
        return ArgumentBinder.bind(this, arg, kwarg);
    }

    Optional<Parameter> parameter(String name) {
        return parameters.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return fun + parameters.stream().map(Parameter::describe).collect(Collectors.joining(", ", "(", ")"));
    }
}
