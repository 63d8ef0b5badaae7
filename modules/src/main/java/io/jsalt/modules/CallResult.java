package io.jsalt.modules;

/**
 * The outcome of one function call, as a minion returns it: Salt's {@code return}, {@code retcode}
 * and {@code success} fields.
 *
 * <p>{@code ret} is normalised on construction to the types msgpack carries (String, Integer/Long,
 * Double, Boolean, null, List, Map with String keys), so anything a module returns can be packed.
 *
 * @param ret     the function's return value
 * @param retcode the job's retcode: 0 for success, a process exit code for {@code cmd.*}, 1 for errors,
 *                254 for an unknown function
 * @param success whether the call succeeded (Salt sets it to {@code retcode == 0})
 */
public record CallResult(Object ret, int retcode, boolean success) {

    public CallResult {
        ret = WireValue.normalize(ret);
    }

    /** A successful result with retcode 0. */
    public static CallResult ok(Object ret) {
        return new CallResult(ret, 0, true);
    }

    /** A failed result with the given retcode. */
    public static CallResult failed(Object ret, int retcode) {
        return new CallResult(ret, retcode, false);
    }

    /** A result whose success follows its retcode, as a process exit code would. */
    public static CallResult withRetcode(Object ret, int retcode) {
        return new CallResult(ret, retcode, retcode == 0);
    }
}
