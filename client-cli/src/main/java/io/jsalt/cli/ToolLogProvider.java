package io.jsalt.cli;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * slf4j for the CLI tools: warnings and errors to stderr ({@link ToolLogger}), nothing else. Setting up
 * logback (finding its providers and configurators in every jar, its pattern layout) was a fifth of a
 * tool's start-up, for output no tool needs. bin/jsalt-env chooses it with {@code -Dslf4j.provider}; it is
 * not registered as a service, so the daemons and the tests keep logback ({@link Logging}).
 */
public final class ToolLogProvider implements SLF4JServiceProvider {
    private final Map<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory loggerFactory = name -> loggers.computeIfAbsent(name, ToolLogger::new);
    private final IMarkerFactory markerFactory = new BasicMarkerFactory();
    private final MDCAdapter mdcAdapter = new NOPMDCAdapter();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // nothing to set up
    }
}
