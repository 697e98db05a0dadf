package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Result timestamps are written by hand for speed: the text is exactly ISO_LOCAL_DATE_TIME's. */
class TimestampTextTests {

    private static String text(LocalDateTime t) {
        return ResultReader.isoLocal(t, new StringBuilder()).toString();
    }

    @Test
    void edgesAndFractionsReadAsTheFormatterWritesThem() {
        for (LocalDateTime t : new LocalDateTime[] {
                LocalDateTime.of(2026, 1, 2, 3, 4, 5),
                LocalDateTime.of(2026, 12, 31, 23, 59, 59, 999_999_999),
                LocalDateTime.of(1, 1, 1, 0, 0, 0, 1),
                LocalDateTime.of(0, 1, 1, 0, 0),
                LocalDateTime.of(9999, 12, 31, 0, 0, 0, 500_000_000),
                LocalDateTime.of(10000, 1, 1, 0, 0),
                LocalDateTime.of(-4713, 11, 24, 0, 0),
                LocalDateTime.of(2026, 6, 1, 12, 0, 0, 123_456_000)}) {
            assertThat(text(t)).isEqualTo(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
        }
    }

    @Test
    void randomTimesReadAsTheFormatterWritesThem() {
        Random random = new Random(20261201);
        for (int i = 0; i < 100_000; i++) {
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000_000) * 1000;
                case 2 -> random.nextInt(1000) * 1_000_000;
                default -> random.nextInt(1_000_000_000);
            };
            LocalDateTime t = LocalDateTime.of(random.nextInt(12000) - 1000, 1 + random.nextInt(12),
                    1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60), nano);
            assertThat(text(t)).isEqualTo(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
        }
    }
}
