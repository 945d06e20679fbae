package dev.varroa.testfixtures.jenkins;

/**
 * One YAML document a configuration-as-code run read.
 *
 * @param origin the file's absolute path, or {@value #REQUEST_BODY} for YAML posted to {@code /configuration-as-code/apply}
 * @param yaml the document as read
 */
public record ConfigurationSource(String origin, String yaml) {

    /** Origin of the YAML that {@code /configuration-as-code/apply} received in its request body. */
    public static final String REQUEST_BODY = "request body";
}
