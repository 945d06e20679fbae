package dev.varroa.testfixtures.jenkins.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.testfixtures.jenkins.AppliedConfiguration;
import dev.varroa.testfixtures.jenkins.ConfigurationSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Every configuration-as-code run that succeeded, one JSON line each in
 * {@code $JENKINS_HOME/varroa-standin/applied-configurations.jsonl}: what Jenkins keeps of an applied configuration
 * (its config.xml files) survives a restart on the same volume, so the stand-in's record of it does too.
 */
final class AppliedConfigurationLog {

    static final Path FILE = Path.of("varroa-standin", "applied-configurations.jsonl");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    AppliedConfigurationLog(Path jenkinsHome) throws IOException {
        this.file = jenkinsHome.resolve(FILE);
        Files.createDirectories(file.getParent());
    }

    synchronized void append(AppliedConfiguration applied) {
        ObjectNode line = JSON.createObjectNode()
                .put("trigger", applied.trigger())
                .put("appliedAt", applied.appliedAt().toString());
        for (ConfigurationSource source : applied.sources()) {
            line.withArray("sources").addObject().put("origin", source.origin()).put("yaml", source.yaml());
        }
        try {
            Files.writeString(file, JSON.writeValueAsString(line) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the applied configuration in " + file
                    + "; JENKINS_HOME must be writable by the container's user", e);
        }
        PlayedBuilds.log("event=standin_configuration_applied trigger=" + applied.trigger() + " sources="
                + applied.sources().size());
    }

    /** Every recorded run, oldest first, those before a restart included. */
    synchronized List<JsonNode> entries() {
        List<JsonNode> entries = new ArrayList<>();
        if (!Files.exists(file)) {
            return entries;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    entries.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return entries;
    }
}
