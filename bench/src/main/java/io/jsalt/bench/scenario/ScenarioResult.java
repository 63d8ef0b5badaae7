package io.jsalt.bench.scenario;

import java.util.Map;

/** A scenario's outcome: machine-readable figures and the same as a table for people. */
public record ScenarioResult(String name, Map<String, Object> json, String table) {}
