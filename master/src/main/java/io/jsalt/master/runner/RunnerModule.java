package io.jsalt.master.runner;

import java.util.List;

/** A runner module ({@code jobs}, {@code manage}, ...): the functions it offers, named {@code module.function}. */
public interface RunnerModule {
    List<RunnerFunction> functions();
}
