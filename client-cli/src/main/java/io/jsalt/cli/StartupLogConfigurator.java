package io.jsalt.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's set-up before a tool configures its own ({@link Logging}), found by logback through
 * {@code META-INF/services}: in code, because reading a {@code logback.xml} loads an XML parser and
 * logback's configuration model, about a third of a CLI tool's start-up.
 */
public final class StartupLogConfigurator extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY; // an explicit logback file still wins
        }
        Logging.configureCli(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
