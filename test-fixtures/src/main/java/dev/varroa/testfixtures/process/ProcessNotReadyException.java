package dev.varroa.testfixtures.process;

/** A local process exited or missed its readiness deadline; the message names its log file. */
public final class ProcessNotReadyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProcessNotReadyException(String message, Throwable lastProbeFailure) {
        super(message, lastProbeFailure);
    }
}
