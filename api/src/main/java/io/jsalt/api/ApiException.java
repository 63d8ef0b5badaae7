package io.jsalt.api;

/**
 * A request the API refuses or cannot serve, with the HTTP status salt-api answers for the same case
 * (401 authentication, 400 bad lowstate, 503 master down, 504 no answer in time).
 */
public class ApiException extends RuntimeException {
    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, message);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }
}
