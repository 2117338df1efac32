from datetime import timezone, timedelta
timezone(timedelta(hours=30))
