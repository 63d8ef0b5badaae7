package io.jsalt.cli;

import java.io.PrintStream;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** A CLI tool's logger ({@link ToolLogProvider}): {@code WARN  JobRun: message}, then the stack trace if any. */
final class ToolLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    private final String shortName;

    ToolLogger(String name) {
        this.name = name;
        this.shortName = name.substring(name.lastIndexOf('.') + 1);
    }

    @Override
    public boolean isTraceEnabled() {
        return false;
    }

    @Override
    public boolean isDebugEnabled() {
        return false;
    }

    @Override
    public boolean isInfoEnabled() {
        return false;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable thrown) {
        StringBuilder line = new StringBuilder(level.toString());
        while (line.length() < 5) {
            line.append(' ');
        }
        line.append(' ').append(shortName).append(": ").append(MessageFormatter.basicArrayFormat(pattern, args))
                .append(System.lineSeparator());
        PrintStream err = System.err;
        synchronized (err) {
            err.print(line);
            if (thrown != null) {
                thrown.printStackTrace(err);
            }
        }
    }
}
