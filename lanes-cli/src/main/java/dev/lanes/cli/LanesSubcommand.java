package dev.lanes.cli;

/**
 * A subcommand that another module adds to the {@code lanes} command: a picocli {@code @Command}
 * class with a public no-argument constructor, listed in {@code
 * META-INF/services/dev.lanes.cli.LanesSubcommand} of its jar. The benchmark suite's {@code
 * bench} is one: it joins {@code lanes} where the lanes-bench module is on the class path (the
 * {@code ./lanes} launcher's jar), and is absent from the lanes-cli distribution.
 */
public interface LanesSubcommand {}
