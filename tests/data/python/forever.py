# A script that never ends: the app's Cancel must kill it.
import time

print("started", flush=True)
while True:
    time.sleep(0.05)
