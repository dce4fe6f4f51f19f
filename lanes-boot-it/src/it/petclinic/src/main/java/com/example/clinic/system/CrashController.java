package com.example.clinic.system;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Shows what happens when a controller throws. */
@RestController
class CrashController {
    @GetMapping("/oups")
    String triggerException() {
        throw new RuntimeException("Expected: controller used to showcase what happens when an "
                + "exception is thrown");
    }
}
