pebs-capture --help
echo "rc=$?"
