pebs-capture --help | head -3
echo "rc=$?"
