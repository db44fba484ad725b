"""Where the time went: terminal tables (rich), JSON, and the HTML page."""
