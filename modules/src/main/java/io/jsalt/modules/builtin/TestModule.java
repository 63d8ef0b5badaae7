package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.JsaltVersion;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Salt's {@code test} module: functions for checking that a minion answers and that arguments travel. */
@SaltModule(name = "test", doc = "Module for running arbitrary tests (Salt's test module).")
public final class TestModule implements ExecutionModule {

    /** fib(92) is the largest Fibonacci number a signed 64-bit integer holds. */
    private static final int MAX_FIB = 92;

    @SaltFunction(doc = "Used to make sure the minion is up and responding. Not an ICMP ping.\n\n"
            + "Returns True.\n\nCLI Example: salt '*' test.ping")
    public boolean ping() {
        return true;
    }

    @SaltFunction(doc = "Return a string - used for testing the connection.\n\nCLI Example: salt '*' test.echo 'foo bar baz'")
    public Object echo(@Arg("text") Object text) {
        // Object, not String: Salt returns the argument as it arrived, a number stays a number
        return text;
    }

    @SaltFunction(doc = "Instruct the minion to sleep for the given number of seconds (fractions allowed), "
            + "then return True.\n\nCLI Example: salt '*' test.sleep 20")
    public boolean sleep(@Arg("length") double length) {
        if (length < 0) {
            throw new CommandExecutionException("length must not be negative, got " + length);
        }
        pause((long) (length * 1000), "test.sleep");
        return true;
    }

    @SaltFunction(doc = "Sleep for a random whole number of seconds between 0 and max (default 60), then return "
            + "True.\n\nCLI Example: salt '*' test.rand_sleep 60")
    public boolean rand_sleep(@Arg(value = "max", defaultValue = "60") int max) {
        if (max < 0) {
            throw new CommandExecutionException("max must not be negative, got " + max);
        }
        pause(ThreadLocalRandom.current().nextInt(max + 1) * 1000L, "test.rand_sleep");
        return true;
    }

    @SaltFunction(doc = "Return the num-th Fibonacci number and the seconds it took to compute, as [number, "
            + "seconds]. Salt computes it with a deliberately slow recursion; jsalt counts up, so only the result "
            + "and the shape match. num must be between 0 and 92 (a 64-bit number).\n\nCLI Example: salt '*' test.fib 3")
    public List<Object> fib(@Arg("num") int num) {
        if (num < 0) {
            throw new CommandExecutionException("Negative number is not allowed!");
        }
        if (num > MAX_FIB) {
            throw new CommandExecutionException("fib(" + num + ") does not fit in 64 bits; the largest is fib("
                    + MAX_FIB + ")");
        }
        long start = System.nanoTime();
        long previous = 0;
        long current = num == 0 ? 0 : 1;
        for (int i = 2; i <= num; i++) {
            long next = previous + current;
            previous = current;
            current = next;
        }
        return List.of(current, (System.nanoTime() - start) / 1e9);
    }

    @SaltFunction(doc = "Return a report of the versions of jsalt, Java and the system, as Salt's "
            + "versions_report text.\n\nCLI Example: salt '*' test.versions_report")
    public String versions_report(ModuleContext context) {
        return VersionsReport.text(context.grains());
    }

    @SaltFunction(doc = "Alias of test.versions_report.\n\nCLI Example: salt '*' test.versions")
    public String versions(ModuleContext context) {
        return versions_report(context);
    }

    @SaltFunction(doc = "Return the versions of jsalt, Java and the system as a dict of sections.\n\n"
            + "CLI Example: salt '*' test.versions_information")
    public Map<String, Map<String, String>> versions_information(ModuleContext context) {
        return VersionsReport.sections(context.grains());
    }

    /** Sleeping is test.sleep's job; an interruption (a killed job) ends the call with an error at once. */
    private static void pause(long millis, String fun) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted; " + fun + " was cut short", e);
        }
    }

    @SaltFunction(doc = "Return the version of jsalt on the minion.\n\nCLI Example: salt '*' test.version")
    public String version() {
        return JsaltVersion.current();
    }

    @SaltFunction(doc = "Print out the data passed into the function *args and **kwargs: returns "
            + "{'args': [...], 'kwargs': {...}}.\n\nCLI Example: salt '*' test.arg 1 \"two\" 3.1 txt=\"hello\" wow='{a: 1, b: \"hello\"}'")
    public Map<String, Object> arg(@VarArgs("args") List<Object> args, @KwArgs("kwargs") Map<String, Object> kwargs) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("args", args);
        ret.put("kwargs", kwargs);
        return ret;
    }

    @SaltFunction(doc = "Print out the data passed into the function **kwargs.\n\n"
            + "CLI Example: salt '*' test.kwarg num=1 txt=\"two\"")
    public Map<String, Object> kwarg(@KwArgs("kwargs") Map<String, Object> kwargs) {
        return kwargs;
    }

    @SaltFunction(doc = "Test that the returncode system is functioning correctly: returns True and sets the "
            + "job's retcode to code (default 42, as in Salt).\n\nCLI Example: salt '*' test.retcode 42")
    public CallResult retcode(@Arg(value = "code", defaultValue = "42") int code) {
        return CallResult.withRetcode(true, code);
    }

    @SaltFunction(doc = "Raise an exception with the given message, to test error handling.\n\n"
            + "CLI Example: salt '*' test.exception 'Oh noes!'")
    public Object exception(@Arg(value = "message", defaultValue = "Test Exception") String message) {
        throw new CommandExecutionException(message);
    }

    @SaltFunction(name = "true", doc = "Always return True.\n\nCLI Example: salt '*' test.true")
    public boolean alwaysTrue() {
        return true;
    }

    @SaltFunction(name = "false", doc = "Always return False.\n\nCLI Example: salt '*' test.false")
    public boolean alwaysFalse() {
        return false;
    }

    @SaltFunction(doc = "Test the outputter: return the data passed in.\n\nCLI Example: salt '*' test.outputter foobar")
    public Object outputter(@Arg("data") Object data) {
        return data;
    }

    @SaltFunction(doc = "Return the configuration options passed to this minion.\n\nCLI Example: salt '*' test.get_opts")
    public Map<String, Object> get_opts(ModuleContext context) {
        return context.opts();
    }
}
