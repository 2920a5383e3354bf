# Options tests (filled below)
