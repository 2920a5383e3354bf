# Install test
